import { useState } from 'react';
import { TextArea } from '../../../components';
import { demoRules, demoRulesHint, demoValidationMessage } from '../demo-rules';
import { DemoPage, DemoSection } from '../demo-page';

export function TextAreaDemo() {
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const [paragraph, setParagraph] = useState('');
  const [empty, setEmpty] = useState('');

  return (
    <DemoPage
      name="TextArea"
      intro="A labelled multi-line input; 8 rows unless told otherwise, like the paragraph block."
    >
      <DemoSection title="Validated">
        <TextArea
          label="Note"
          rows={3}
          value={note}
          onChange={(value) => {
            setNote(value);
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          required
          minLength={demoRules.minLength}
          maxLength={demoRules.maxLength}
          spellCheck={false}
          hint={demoRulesHint}
          error={demoValidationMessage(note, touched)}
        />
      </DemoSection>

      <DemoSection title="Default size">
        <TextArea
          label="Paragraph"
          value={paragraph}
          onChange={setParagraph}
          placeholder="Write something…"
          hint={`${paragraph.length} characters`}
        />
      </DemoSection>

      <DemoSection title="With an error">
        <TextArea label="Body" rows={3} value={empty} onChange={setEmpty} error="Can't be blank" />
      </DemoSection>

      <DemoSection title="Disabled">
        <TextArea label="Disabled text area" rows={3} value="Read only." onChange={() => undefined} disabled />
      </DemoSection>
    </DemoPage>
  );
}
