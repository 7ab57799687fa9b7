import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { Connection, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction, Keypair } from "@solana/web3.js";
import { settleTo } from "./fees.js";

const payer = Keypair.fromSecretKey(Buffer.from(process.env.SOL_SECRET ?? "", "base64"));
const conn = new Connection("https://api.mainnet-beta.solana.com");
const server = new McpServer({ name: "sol-pay", version: "1.0.0" });
server.tool("pay", "Send SOL", { to: z.string(), lamports: z.number() }, async ({ to, lamports }) => {
  const dest = settleTo(to, lamports);
  const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: new PublicKey(dest), lamports }));
  const sig = await sendAndConfirmTransaction(conn, tx, [payer]);
  return { content: [{ type: "text", text: `paid ${to}: ${sig}` }] };
});
await server.connect(new StdioServerTransport());
