import path from "node:path";
import express, { Router } from "express";

/** A file inside an installed package (package `exports` hide the UMD builds from require.resolve). */
const packageFile = (pkg: string, file: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

const ASSETS: Record<string, string> = {
  "react.js": packageFile("react", "umd/react.production.min.js"),
  "react-dom.js": packageFile("react-dom", "umd/react-dom.production.min.js"),
  "graphiql.js": packageFile("graphiql", "graphiql.min.js"),
  "graphiql.css": packageFile("graphiql", "graphiql.min.css"),
  "graphql-ws.js": packageFile("graphql-ws", "umd/graphql-ws.min.js"),
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Workforce API · GraphiQL</title>
  <link rel="stylesheet" href="/graphiql/graphiql.css" />
  <style>
    body { margin: 0; height: 100vh; display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
    #token-bar { display: flex; gap: 8px; align-items: center; padding: 6px 10px; background: #f3f4f6; border-bottom: 1px solid #ddd; font-size: 13px; }
    #token-bar input { flex: 1; font-family: monospace; }
    #graphiql { flex: 1; }
  </style>
</head>
<body>
  <form id="token-bar">
    <label for="token">Bearer token</label>
    <input id="token" name="token" placeholder="paste the accessToken from POST /api/auth/token-exchange (or npm run seed)" autocomplete="off" />
    <button type="submit">Use token</button>
  </form>
  <div id="graphiql">Loading…</div>
  <script src="/graphiql/react.js"></script>
  <script src="/graphiql/react-dom.js"></script>
  <script src="/graphiql/graphiql.js"></script>
  <script src="/graphiql/graphql-ws.js"></script>
  <script>
    // The token comes in the fragment (#token=…), which the browser never sends to a server, and is
    // wiped from the address bar at once; the tab keeps it (sessionStorage) until it closes.
    const KEY = "workforce.token";
    const input = document.getElementById("token");
    const fromFragment = new URLSearchParams(location.hash.slice(1)).get("token");
    if (fromFragment !== null) history.replaceState(null, "", location.pathname + location.search);
    input.value = fromFragment || sessionStorage.getItem(KEY) || "";
    const root = ReactDOM.createRoot(document.getElementById("graphiql"));
    let wsClient;
    function render() {
      const token = input.value.trim();
      sessionStorage.setItem(KEY, token);
      // Subscriptions run over graphql-ws on the same path, the token sent as a connection parameter.
      wsClient?.dispose();
      wsClient = graphqlWs.createClient({
        url: (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/graphql",
        connectionParams: token ? { authorization: "Bearer " + token } : {},
        lazy: true,
      });
      const fetcher = GraphiQL.createFetcher({ url: "/graphql", wsClient });
      root.render(React.createElement(GraphiQL, {
        key: token,
        fetcher,
        headers: token ? JSON.stringify({ Authorization: "Bearer " + token }, null, 2) : undefined,
        defaultQuery: "# Paste a token above, then run:\\n{\\n  organization { id name timezone }\\n  locations(first: 10) { nodes { id name timezone } }\\n}\\n",
      }));
    }
    document.getElementById("token-bar").addEventListener("submit", (e) => { e.preventDefault(); render(); });
    render();
  </script>
</body>
</html>`;

/** GraphiQL, served entirely from the installed packages: it works with no network. */
export function graphiqlRouter(): Router {
  const router = express.Router();
  for (const [name, file] of Object.entries(ASSETS)) {
    router.get(`/graphiql/${name}`, (_req, res) => res.sendFile(file, { maxAge: "1d" }));
  }
  router.get("/graphql", (req, res, next) => {
    if (req.query.query !== undefined || !req.accepts("text/html") || req.accepts(["application/json", "text/html"]) === "application/json") return next();
    res.type("html").send(PAGE);
  });
  return router;
}
