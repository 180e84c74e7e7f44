export default function ConsoleApp() {
  return <h1>Console</h1>;
}
