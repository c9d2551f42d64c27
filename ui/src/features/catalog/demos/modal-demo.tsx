import { useState } from 'react';
import { Button, Modal, TextInput } from '../../../components';
import { DemoPage, DemoSection, Readout } from '../demo-page';

export function ModalDemo() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [result, setResult] = useState('none');
  const [confirmOpen, setConfirmOpen] = useState(false);

  const finish = (outcome: string) => {
    setResult(outcome);
    setOpen(false);
  };

  return (
    <DemoPage
      name="Modal"
      intro="A dialog above the page. Escape, the × button or a click on the backdrop closes it; focus returns to the button that opened it."
    >
      <DemoSection title="Dialog with a form">
        <div className="catalog-row">
          <Button onClick={() => setOpen(true)}>Open modal</Button>
        </div>
        <Readout>Last result: {result}</Readout>
        <Modal
          open={open}
          onClose={() => finish('closed')}
          title="Name your blog"
          footer={
            <>
              <Button variant="secondary" onClick={() => finish('cancelled')}>
                Cancel
              </Button>
              <Button onClick={() => finish(name ? `saved "${name}"` : 'saved')}>Save</Button>
            </>
          }
        >
          <TextInput label="Blog name" value={name} onChange={setName} placeholder="My blog" />
        </Modal>
      </DemoSection>

      <DemoSection title="Small confirmation">
        <div className="catalog-row">
          <Button variant="danger" onClick={() => setConfirmOpen(true)}>
            Remove block
          </Button>
        </div>
        <Modal
          open={confirmOpen}
          onClose={() => setConfirmOpen(false)}
          size="small"
          title="Remove block"
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirmOpen(false)}>
                Cancel
              </Button>
              <Button variant="danger" onClick={() => setConfirmOpen(false)}>
                Remove
              </Button>
            </>
          }
        >
          <p className="catalog-text">Are you sure you want to remove this block?</p>
        </Modal>
      </DemoSection>
    </DemoPage>
  );
}
