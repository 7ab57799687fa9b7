import express from "express";
import { discovery } from "./oauth.js";

const app = express();
app.get("/.well-known/oauth-authorization-server", (req, res) => res.json(discovery(req)));
app.listen(3000);
