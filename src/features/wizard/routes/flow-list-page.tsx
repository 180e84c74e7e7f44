export default function FlowListPage() {
  return <h1>IDV Capture</h1>;
}
