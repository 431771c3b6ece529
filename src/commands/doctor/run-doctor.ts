// `appraisal doctor`: every check in order — offline first (config, profile, key source, keychain,
// file modes, proxies, CA file), then, unless --offline (and by default when a base URL is known),
// the network (DNS, TCP, TLS, proxies answering) and the service (key, clock, description, guard).
// Nothing is written anywhere; a broken config is one more finding. Exit 20 when there is a finding.
import type { Context } from '../../core/context.js';
import { AppError, FindingsError } from '../../core/errors.js';
import type { Session } from '../../core/session.js';
import { openDestination, writeRecords, type View } from '../../output/index.js';
import { checkConfig } from './config-checks.js';
import { error, info, isFinding, type Item } from './finding.js';
import { checkKeychain } from './keychain-check.js';
import { checkNetwork } from './network-checks.js';
import { checkCaFile, checkProxy } from './proxy-ca-checks.js';
import { doctorList } from './report.js';
import { checkService } from './service-checks.js';

export interface DoctorOptions {
  offline?: boolean;
  checkNetwork?: boolean;
}

const VIEW: View = { label: 'checks', columns: ['severity', 'check', 'result', 'next'] };

/** A check group that throws (a CA file or proxy variable every command refuses) is one more finding:
 *  doctor runs when everything else refuses. */
async function settled(check: string, work: () => Promise<Item[]>): Promise<Item[]> {
  try {
    return await work();
  } catch (thrown) {
    if (!(thrown instanceof AppError)) throw thrown;
    return [
      error(check, `the ${check} checks could not run: ${thrown.message}`, thrown.hint ?? 'fix the findings above, then run doctor again'),
    ];
  }
}

/** Every item as a list on a terminal (report.ts); the findings as records in any other format. */
async function writeReport(ctx: Context, items: readonly Item[], findings: readonly Item[]): Promise<void> {
  if (ctx.output.format === 'table') {
    const destination = await openDestination(ctx);
    try {
      await destination.write(ctx.io.redactor.redact(doctorList(items)));
      await destination.finish();
    } catch (thrown) {
      await destination.discard();
      throw thrown;
    }
    return;
  }
  async function* records() {
    for (const item of findings) yield { check: item.check, severity: item.severity, result: item.result, next: item.next ?? null };
  }
  await writeRecords(ctx, records(), VIEW);
}

async function sessionOrFinding(ctx: Context, items: Item[], skip: boolean): Promise<Session | undefined> {
  if (skip) return undefined;
  try {
    return await ctx.session();
  } catch (thrown) {
    const message = thrown instanceof AppError ? thrown.message : String(thrown);
    const hint = thrown instanceof AppError ? thrown.hint : undefined;
    items.push(error('session', `commands cannot run: ${message}`, hint ?? 'see the findings above'));
    return undefined;
  }
}

export async function runDoctor(ctx: Context, options: DoctorOptions): Promise<void> {
  const items: Item[] = [];
  const config = checkConfig(ctx);
  items.push(...config.items);
  const keychain = await settled('keychain', () => checkKeychain(ctx, config.facts));
  items.push(...keychain);
  // A broken config or keychain has been said; resolving a session would only fail (and wait) again.
  const broken = !config.facts.readable || keychain.some(isFinding);
  const session = await sessionOrFinding(ctx, items, broken);
  const baseUrl = session?.baseUrl ?? ctx.globals.baseUrl ?? config.facts.profile?.baseUrl;
  const caFile = session?.caFile ?? ctx.globals.caFile ?? config.facts.profile?.caFile;
  const proxy = await checkProxy(ctx, baseUrl);
  items.push(...proxy.items, ...checkCaFile(ctx, caFile));

  const network = options.offline !== true && (options.checkNetwork === true || baseUrl !== undefined);
  if (options.offline) items.push(info('network', '--offline: network checks skipped'));
  else if (baseUrl === undefined) items.push(info('network', 'no base URL (no profile, no APPRAISAL_BASE_URL): network checks skipped'));
  if (network && baseUrl !== undefined) {
    items.push(...(await settled('network', () => checkNetwork(baseUrl, caFile, proxy.facts, ctx.now()))));
    if (session) items.push(...(await settled('service', () => checkService(ctx, session))));
  }

  const findings = items.filter(isFinding);
  await writeReport(ctx, items, findings);
  if (findings.length > 0) {
    const errors = findings.filter((item) => item.severity === 'error').length;
    throw new FindingsError(
      `doctor found ${findings.length} problem${findings.length === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${findings.length - errors} warning${findings.length - errors === 1 ? '' : 's'})`,
      {
        hint: 'each finding says what to do next; attach `appraisal doctor -o json` to a support ticket (no secrets in it)',
      },
    );
  }
  ctx.io.notice('doctor: no problems found');
}
