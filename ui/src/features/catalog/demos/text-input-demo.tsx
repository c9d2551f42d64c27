import { useState } from 'react';
import { TextInput } from '../../../components';
import { appConfig } from '../../../config/app-config';
import { demoRules, demoRulesHint, demoValidationMessage } from '../demo-rules';
import { DemoPage, DemoSection } from '../demo-page';

export function TextInputDemo() {
  const [username, setUsername] = useState('');
  const [touched, setTouched] = useState(false);
  const [subdomain, setSubdomain] = useState('');
  const [website, setWebsite] = useState('');
  const [title, setTitle] = useState('');

  return (
    <DemoPage name="TextInput" intro="A labelled single-line input with hint, error line and optional text beside it.">
      <DemoSection title="Validated">
        <TextInput
          label="Username"
          value={username}
          onChange={(value) => {
            setUsername(value);
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          required
          minLength={demoRules.minLength}
          maxLength={demoRules.maxLength}
          pattern={demoRules.pattern}
          placeholder="e.g. alice42"
          autoComplete="off"
          spellCheck={false}
          hint={demoRulesHint}
          error={demoValidationMessage(username, touched)}
        />
      </DemoSection>

      <DemoSection title="With text beside it">
        <TextInput
          label="Subdomain"
          value={subdomain}
          onChange={setSubdomain}
          suffix={`.${appConfig().host}`}
          placeholder="yourblog"
          autoComplete="off"
          spellCheck={false}
        />
        <TextInput
          label="Website"
          type="url"
          value={website}
          onChange={setWebsite}
          prefix="https://"
          placeholder="example.com"
        />
      </DemoSection>

      <DemoSection title="With an error">
        <TextInput label="Title" value={title} onChange={setTitle} error="Can't be blank" />
      </DemoSection>

      <DemoSection title="Disabled">
        <TextInput label="Disabled input" value="can't touch this" onChange={() => undefined} disabled />
      </DemoSection>
    </DemoPage>
  );
}
