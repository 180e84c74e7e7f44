export default function WizardPage({ flowId }: { flowId: string }) {
  return <h1>{flowId}</h1>;
}
