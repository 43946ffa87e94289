/**
 * Test helper: the local OpenAI-compatible server (python/crane_llm_testing/fake_openai.py) as a
 * child process, with its control API. Not part of the build (see tsconfig "exclude").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- recorded JSON, inspected freely by tests
  body: any;
  time: number;
}

export class FakeOpenAIProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string
  ) {}

  get baseURL(): string {
    return `${this.url}/v1`;
  }

  static async start(): Promise<FakeOpenAIProcess> {
    const python = process.env.CRANE_PYTHON || 'python3';
    const repoPython = join(__dirname, '..', '..', '..', '..', 'python');
    const child = spawn(python, ['-m', 'crane_llm_testing.fake_openai', '--port', '0'], {
      env: { ...process.env, PYTHONPATH: repoPython, PYTHONUNBUFFERED: '1' },
      stdio: ['ignore', 'pipe', 'pipe']
    });
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`fake server did not start: ${err}`)), 15000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /PORT (\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => reject(new Error(`fake server exited (${code}): ${err}`)));
    });
    return new FakeOpenAIProcess(child, `http://127.0.0.1:${port}`);
  }

  async script(...replies: Record<string, unknown>[]): Promise<void> {
    await this.post('/_script', { replies });
  }

  async reset(): Promise<void> {
    await this.post('/_reset', {});
  }

  async requests(): Promise<RecordedRequest[]> {
    const res = await fetch(`${this.url}/_requests`);
    return ((await res.json()) as { requests: RecordedRequest[] }).requests;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }

  private async post(path: string, body: unknown): Promise<void> {
    const res = await fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body)
    });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
  }
}

export function verdictText(v: {
  crash: boolean;
  explanation?: string;
  exception?: string | null;
  line?: number | null;
  variables?: string[];
}): string {
  return JSON.stringify({
    explanation: v.explanation ?? '',
    crash: v.crash,
    exception: v.exception ?? null,
    line: v.line ?? null,
    variables: v.variables ?? []
  });
}
