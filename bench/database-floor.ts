// The floor under any Coinplane request that reads PostgreSQL, measured: a bare Express 5 app whose one route sends
// `roundTrips` statements to PostgreSQL, one after the other, and answers the row as JSON. The statement reads the row
// the benchmark's GET reads (the wallet by id, prepared once per connection as the server does, on a `pg` pool of the
// server's default size; the GET's own statement also aggregates the wallet's assets, which PostgreSQL pays for), so the ratio of this app to the hello world is what the database round trips alone leave of
// the framework's ceiling, before authentication, validation, rate limiting, logging and the domain add anything.
import express from "express";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.get("/wallets/:id", async (req, res) => {
  const roundTrips = Number(req.query.roundTrips ?? 1);
  let row: unknown;
  for (let i = 0; i < roundTrips; i++) {
    const result = await pool.query({ name: "floor_wallet", text: 'SELECT * FROM "Wallet" WHERE id = $1', values: [req.params.id] });
    row = result.rows[0];
  }
  res.json(row);
});
app.get("/", (_req, res) => {
  res.json({ ready: true });
});
app.listen(Number(process.env.PORT ?? 4603), "127.0.0.1");
