import OpenAI from 'openai';
export const client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1' });
export const local = new OpenAI({ baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
