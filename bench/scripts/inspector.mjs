// A DevTools protocol session with a Worker's isolate, for the profilers (profile.mjs, loop.mjs).
// Needs Node's WebSocket: run them with `node --experimental-websocket` (Node 20).

/** Connects to the first target the inspector on `port` lists; `send` resolves with each result. */
export async function connectInspector(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  // The inspector proxy refuses sockets without an Origin (undici takes headers as a second argument).
  const socket = new WebSocket(target.webSocketDebuggerUrl, { headers: { origin: "http://localhost" } });
  await new Promise((resolve, reject) => Object.assign(socket, { onopen: resolve, onerror: reject }));
  let id = 0;
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    pending.get(message.id)?.(message.result);
  };
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}
