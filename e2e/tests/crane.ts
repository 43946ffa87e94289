import { readFileSync, writeFileSync } from 'node:fs';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { cell, craneButton } from './jupyter';

/**
 * CRANE-LLM specific helpers: the switches, the sidebar, the verdict boxes, and the local
 * OpenAI-compatible server serve.py started for this run (python/crane_llm_testing/fake_openai.py).
 */

/** The slice of the app object (exposed by expose_app_in_browser) the tests reach into. */
export interface CraneWindow {
  jupyterapp: {
    commands: { execute(id: string, args?: unknown): Promise<unknown>; isToggled(id: string): boolean };
    shell: {
      currentWidget: {
        sessionContext: {
          session: { kernel: { connectionStatus: string } | null } | null;
          restartKernel(): Promise<void>;
          shutdown(): Promise<void>;
        };
      };
    };
  };
}

interface E2EInfo {
  fakeOpenai: string;
  home: string;
}

export function e2eInfo(root = process.env.CRANE_E2E_ROOT!): E2EInfo {
  return JSON.parse(readFileSync(`${root}-e2e.json`, 'utf8')) as E2EInfo;
}

export interface Reply {
  text?: string;
  status?: number;
  preset?: string;
  chunk_delay?: number;
  chunk_size?: number;
  delay?: number;
  hang?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** When the request arrived, seconds since the epoch (the fake server's clock: this machine's). */
  time: number;
  /** When the client closed the connection before a streamed answer ended, if it did. */
  closedAt?: number;
}

export class FakeProvider {
  constructor(readonly url: string) {}

  static ofRun(root?: string): FakeProvider {
    return new FakeProvider(e2eInfo(root).fakeOpenai);
  }

  async reset(): Promise<void> {
    await fetch(`${this.url}/_reset`, { method: 'POST' });
  }

  async script(...replies: Reply[]): Promise<void> {
    await fetch(`${this.url}/_script`, { method: 'POST', body: JSON.stringify({ replies }) });
  }

  async requests(): Promise<RecordedRequest[]> {
    const res = await fetch(`${this.url}/_requests`);
    return ((await res.json()) as { requests: RecordedRequest[] }).requests;
  }
}

export function verdictText(v: {
  crash: boolean;
  explanation: string;
  exception?: string | null;
  line?: number | null;
  variables?: string[];
  fix?: string;
}): string {
  const base = { explanation: v.explanation, crash: v.crash, exception: v.exception ?? null, line: v.line ?? null, variables: v.variables ?? [] };
  return JSON.stringify(v.fix === undefined ? base : { ...base, fix: v.fix });
}

/** Rewrites ~/.crane_llm/config.json of the e2e server's HOME: read by the server on every request. */
export function setProviderConfig(config: Record<string, string>, root?: string): void {
  writeFileSync(`${e2eInfo(root).home}/.crane_llm/config.json`, JSON.stringify(config));
}

export function defaultProviderConfig(root?: string): Record<string, string> {
  return { base_url: `${e2eInfo(root).fakeOpenai}/v1`, model: 'fake-model', api_key: 'sk-e2e-not-a-real-key' };
}

export const SWITCH_COMMAND = {
  useLlm: 'crane-llm:toggle-llm',
  includeRuntimeInfo: 'crane-llm:toggle-runtime-info',
  includeValues: 'crane-llm:toggle-values',
  askBeforeSending: 'crane-llm:toggle-ask-before-sending'
} as const;

/** Sets the switches through their palette commands (the persisted settings follow). */
export async function setSwitches(
  page: Page,
  values: { useLlm?: boolean; includeRuntimeInfo?: boolean; includeValues?: boolean; askBeforeSending?: boolean }
): Promise<void> {
  await page.evaluate(
    async ({ values, commands }) => {
      const app = (window as unknown as CraneWindow).jupyterapp;
      for (const [name, want] of Object.entries(values)) {
        const id = (commands as Record<string, string>)[name];
        if (want !== undefined && app.commands.isToggled(id) !== want) await app.commands.execute(id);
      }
    },
    { values, commands: SWITCH_COMMAND }
  );
}

export async function switchStates(page: Page): Promise<{ useLlm: boolean; includeRuntimeInfo: boolean }> {
  return page.evaluate(commands => {
    const app = (window as unknown as CraneWindow).jupyterapp;
    return { useLlm: app.commands.isToggled(commands.useLlm), includeRuntimeInfo: app.commands.isToggled(commands.includeRuntimeInfo) };
  }, SWITCH_COMMAND);
}

export async function runCommand(page: Page, id: string, args: Record<string, unknown> = {}): Promise<void> {
  await page.evaluate(({ id, args }) => (window as unknown as CraneWindow).jupyterapp.commands.execute(id, args), { id, args });
}

export function sidebar(page: Page): Locator {
  return page.locator('#crane-llm-sidebar');
}

export async function openSidebar(page: Page): Promise<Locator> {
  await runCommand(page, 'crane-llm:show-sidebar');
  await expect(sidebar(page)).toBeVisible();
  return sidebar(page);
}

export function verdict(page: Page, index: number): Locator {
  return cell(page, index).locator('.crane-verdict');
}

/** Click CRANE-LLM on the selected cell and wait for the check to end. */
export async function check(page: Page, index: number): Promise<Locator> {
  const box = verdict(page, index);
  // A verdict from an earlier check may still stand: each render makes a new box, so this check's
  // verdict is the first box after that one is gone (else the old one would pass for it).
  const earlier = (await box.count()) ? await box.first().elementHandle() : null;
  await craneButton(page).locator('button, jp-button').first().click();
  // Move off the button so its switches popup closes, as a user's pointer would.
  await page.mouse.move(700, 880);
  if (earlier) await page.waitForFunction(node => !node.isConnected, earlier);
  await expect(box).toHaveAttribute('data-phase', /done|failed|cancelled/);
  return box;
}

export async function hoverPopup(page: Page): Promise<Locator> {
  await craneButton(page).hover();
  const popup = page.locator('.crane-switch-popup');
  await expect(popup).toBeVisible();
  return popup;
}

export async function dismissPopup(page: Page): Promise<void> {
  await page.mouse.move(5, 600);
  await expect(page.locator('.crane-switch-popup')).toHaveCount(0);
}

/** Saves a screenshot of the current state and attaches it to the HTML report under its name. */
export async function snap(page: Page, info: TestInfo, name: string, fullPage = false): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage });
  await info.attach(name, { path, contentType: 'image/png' });
}
