/**
 * Each stage synthesized once, as config/<stage>.json commits it, in us-east-1 (the prices' Region), without bundling
 * (the bill reads the template, not the code), and read into its inventory. prod's two placeholders (the alarm
 * address, the sender) get example values: neither changes what is billed.
 */
import { App } from 'aws-cdk-lib';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { addPetStore } from '#lib/petstore-app';
import { stageConfig } from '#lib/stage-config';
import { STAGES, type StageName } from '#shared/stages';
import { stageInventory, type StageInventory, type TemplateJson } from './stage-inventory';

const PROJECT_ROOT = resolve(import.meta.dirname, '..');
const FILLED_IN = { alarmEmail: 'ops@example.com', sesFromEmail: 'no-reply@example.com' } as const;

function synthesizeStage(stage: StageName): TemplateJson[] {
  const cdkContext = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
  const outdir = mkdtempSync(join(tmpdir(), 'petstore-bench-synth-'));
  try {
    const app = new App({ outdir, context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
    const { main, edge } = addPetStore(app, {
      config: stageConfig(stage, stage === 'prod' ? FILLED_IN : {}),
      projectRoot: PROJECT_ROOT,
      env: { region: 'us-east-1' },
    });
    const assembly = app.synth();
    return [main, ...(edge ? [edge] : [])].map((stack) => assembly.getStackByName(stack.stackName).template as TemplateJson);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

export function inventoryOfStages(): Record<StageName, StageInventory> {
  return Object.fromEntries(STAGES.map((stage) => [stage, stageInventory(synthesizeStage(stage))])) as Record<StageName, StageInventory>;
}
