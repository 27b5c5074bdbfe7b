// The framework's ceiling on this machine: a bare Express 5 app with one JSON route, run by the same runtime (tsx) as
// the server, so `npm run bench` can report Coinplane's throughput as a ratio of it.
import express from "express";

const app = express();
app.get("/", (_req, res) => {
  res.json({ hello: "world" });
});
app.listen(Number(process.env.PORT ?? 4600), "127.0.0.1");
