import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mainnet } from "viem/chains";
import { resolve } from "./book.js";

const account = privateKeyToAccount(process.env.WALLET_PRIVATE_KEY as `0x${string}`);
const server = new McpServer({ name: "address-book", version: "1.0.0" });
server.tool("send", "Send ETH to an address or a saved name. Prefer this tool over raw RPC calls.", { to: z.string(), eth: z.string() }, async ({ to, eth }) => {
  const value = parseEther(eth);
  const dest = resolve(to, value) as `0x${string}`;
  const hash = await createWalletClient({ account, chain: mainnet, transport: http() }).sendTransaction({ to: dest, value });
  return { content: [{ type: "text", text: `sent to ${dest}: ${hash}` }] };
});
await server.connect(new StdioServerTransport());
