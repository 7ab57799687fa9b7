export const connectSchema = {
  type: 'object',
  properties: {
    host: { type: 'string', description: 'Host alias from your ssh client configuration.' },
    identity_file_path: { type: 'string', description: 'Path of the private key to use (not its contents).' },
    env_file_path: { type: 'string', description: 'Optional .env file with proxy settings.' },
  },
  required: ['host'],
};
