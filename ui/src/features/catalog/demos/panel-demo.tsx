import { Button, Panel } from '../../../components';
import { DemoPage, DemoSection } from '../demo-page';

export function PanelDemo() {
  return (
    <DemoPage name="Panel" intro="A titled section of a screen; it can fold away behind its title.">
      <DemoSection title="Plain">
        <Panel title="Blog" headingLevel={3}>
          <p className="catalog-text">A plain panel always shows its content.</p>
        </Panel>
      </DemoSection>

      <DemoSection title="Collapsible, open">
        <Panel
          title="Social Accounts"
          headingLevel={3}
          collapsible
          actions={<Button variant="secondary">Connect</Button>}
        >
          <p className="catalog-text">Click the title to fold this panel away.</p>
        </Panel>
      </DemoSection>

      <DemoSection title="Collapsible, collapsed at first">
        <Panel title="Danger Zone!" headingLevel={3} tone="danger" collapsible defaultCollapsed>
          <p className="catalog-text">This content stays hidden until the title is clicked.</p>
        </Panel>
      </DemoSection>
    </DemoPage>
  );
}
