import { useState } from 'react';
import { Button, ButtonLink, type ButtonVariant } from '../../../components';
import { paths } from '../../../config/paths';
import { DemoPage, DemoSection, Readout } from '../demo-page';

const variants: Array<{ variant: ButtonVariant; label: string }> = [
  { variant: 'primary', label: 'Primary' },
  { variant: 'secondary', label: 'Secondary' },
  { variant: 'danger', label: 'Danger' },
  { variant: 'link', label: 'Link' },
];

export function ButtonDemo() {
  const [lastClicked, setLastClicked] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [submits, setSubmits] = useState(0);

  return (
    <DemoPage
      name="Button"
      intro="Actions. Variants for the main, a neutral and a destructive action, plus a link look-alike."
    >
      <DemoSection title="Variants">
        <div className="catalog-row">
          {variants.map(({ variant, label }) => (
            <Button key={variant} variant={variant} onClick={() => setLastClicked(label)}>
              {label}
            </Button>
          ))}
        </div>
        <Readout>Last clicked: {lastClicked ?? 'none'}</Readout>
      </DemoSection>

      <DemoSection title="Disabled">
        <div className="catalog-row">
          {variants.map(({ variant, label }) => (
            <Button key={variant} variant={variant} disabled onClick={() => setLastClicked(`${label} (disabled)`)}>
              {label}
            </Button>
          ))}
        </div>
      </DemoSection>

      <DemoSection title="Loading">
        <div className="catalog-row">
          <Button loading={loading} onClick={() => setLoading(true)}>
            Save
          </Button>
          <Button variant="danger" loading={loading} onClick={() => setLoading(true)}>
            Delete
          </Button>
          <Button variant="secondary" onClick={() => setLoading((value) => !value)}>
            {loading ? 'Stop loading' : 'Start loading'}
          </Button>
        </div>
        <Readout>Loading: {loading ? 'yes' : 'no'}</Readout>
      </DemoSection>

      <DemoSection title="Submit button">
        <form
          className="catalog-row"
          onSubmit={(event) => {
            event.preventDefault();
            setSubmits((count) => count + 1);
          }}
        >
          <Button type="submit">Submit form</Button>
        </form>
        <Readout>
          Submitted: {submits} {submits === 1 ? 'time' : 'times'}
        </Readout>
      </DemoSection>

      <DemoSection title="Link that looks like a button">
        <div className="catalog-row">
          <ButtonLink to={paths.catalog}>Catalog index</ButtonLink>
          <ButtonLink to={paths.catalogTextInput} variant="primary">
            Next demo: TextInput
          </ButtonLink>
        </div>
      </DemoSection>
    </DemoPage>
  );
}
