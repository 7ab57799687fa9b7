export declare class Wallet {
    static fromMnemonic(mnemonic: string, passphrase?: string): Wallet;
    static generate(): Wallet;
    derive(path: string): { publicKey: Uint8Array | null; privateKey: Uint8Array | null };
}
