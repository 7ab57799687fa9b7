import { VSCodeClientManager } from '../clients/vscode.js';

export async function init(options) {
  await new VSCodeClientManager().configure(options);
}
