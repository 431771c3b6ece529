// Runs one child process and measures it: wall time (process.hrtime, spawn to exit), CPU time
// (user + sys of the child) and peak RSS. CPU and peak RSS come from GNU `/usr/bin/time -f '%M %U
// %S'` (ru_maxrss, ru_utime, ru_stime; CPU at 10 ms resolution) when it works here, for every run;
// otherwise, on request, a Node child reports its own `process.resourceUsage()` from an --import
// hook, and any other child is sampled through /proc/<pid>/status VmHWM (the kernel's high-water
// mark, so the last successful read is the peak up to that moment) and has no CPU figure.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const HOOK = pathToFileURL(join(import.meta.dirname, 'maxrss-hook.mjs')).href;

let timeProbe;
const TIME_FORMAT = '%M %U %S';
const TIME_LINE = /^(\d+) (\d+\.\d+) (\d+\.\d+)\s*$/m;
/**
 * Whether GNU time with `-f` and `-o` works on this machine (probed once). BENCH_RSS=self forces
 * the fallbacks, to check them on a machine that has GNU time.
 */
export function gnuTimeAvailable(workDir) {
  if (timeProbe !== undefined) return timeProbe;
  timeProbe = false;
  if (process.env.BENCH_RSS === 'self' || !existsSync('/usr/bin/time')) return timeProbe;
  const out = join(workDir, 'time-probe.txt');
  const probe = spawnSync('/usr/bin/time', ['-f', TIME_FORMAT, '-o', out, process.execPath, '-e', '0'], { stdio: 'ignore' });
  try {
    timeProbe = probe.status === 0 && TIME_LINE.test(readFileSync(out, 'utf8'));
  } catch {
    timeProbe = false;
  }
  rmSync(out, { force: true });
  return timeProbe;
}

/** Which method measures peak RSS here, for the report. */
export function rssMethod(workDir) {
  return gnuTimeAvailable(workDir)
    ? "/usr/bin/time -f '%M %U %S' (ru_maxrss, ru_utime + ru_stime of the child)"
    : 'process.resourceUsage().maxRSS reported by the Node child at exit (--import hook); /proc VmHWM sampling for other programs';
}

const live = new Set();
/** Kill every child still running (the bench is exiting). */
export function killAll() {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
export function track(child) {
  live.add(child);
  child.once('exit', () => live.delete(child));
}

function readVmHwm(pid) {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Run `cmd args` and wait for it.
 * @param {object} o
 * @param {string} o.cmd
 * @param {string[]} o.args
 * @param {Record<string,string>} o.env
 * @param {string} [o.cwd]
 * @param {string} [o.stdout] file to write stdout to; default /dev/null
 * @param {boolean} [o.rss] measure peak RSS
 * @param {string} o.workDir scratch directory for the RSS file
 * @param {number} [o.timeoutMs]
 * @returns {Promise<{ms:number, cpuMs:number|undefined, code:number|null, signal:string|null, stderr:string, rssKiB:number|undefined, timedOut:boolean}>}
 */
export function runTimed(o) {
  let cmd = o.cmd;
  let args = o.args;
  const env = { ...o.env };
  let rssFile;
  let poll = false;
  if (gnuTimeAvailable(o.workDir)) {
    rssFile = join(o.workDir, `rss-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
    args = ['-f', TIME_FORMAT, '-o', rssFile, cmd, ...args];
    cmd = '/usr/bin/time';
  } else if (o.rss) {
    rssFile = join(o.workDir, `rss-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
    if (cmd === process.execPath) {
      args = ['--import', HOOK, ...args];
      env.BENCH_MAXRSS_FILE = rssFile;
    } else {
      poll = true;
    }
  }
  const stdoutFd = o.stdout ? openSync(o.stdout, 'w') : 'ignore';
  return new Promise((resolve, reject) => {
    let stderr = '';
    let timedOut = false;
    let peak;
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { env, cwd: o.cwd, stdio: ['ignore', stdoutFd, 'pipe'] });
    track(child);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      // Keep the tail only: a chatty child must not grow the bench's own memory.
      stderr = (stderr + text).slice(-16_384);
    });
    const sampler = poll
      ? setInterval(() => {
          const value = readVmHwm(child.pid);
          if (value !== undefined) peak = value;
        }, 20)
      : undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, o.timeoutMs ?? 300_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      if (sampler) clearInterval(sampler);
      if (typeof stdoutFd === 'number') closeSync(stdoutFd);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      if (sampler) clearInterval(sampler);
      if (typeof stdoutFd === 'number') closeSync(stdoutFd);
      let rssKiB = poll ? peak : undefined;
      let cpuMs;
      if (rssFile) {
        try {
          // GNU time may put "Command exited with non-zero status N" before the figures.
          const text = readFileSync(rssFile, 'utf8');
          const figures = TIME_LINE.exec(text);
          if (figures) {
            rssKiB = Number(figures[1]);
            cpuMs = (Number(figures[2]) + Number(figures[3])) * 1000;
          } else {
            const self = /^(\d+) (\d+) (\d+)\s*$/m.exec(text);
            if (self) {
              rssKiB = Number(self[1]);
              cpuMs = (Number(self[2]) + Number(self[3])) / 1000;
            }
          }
        } catch {
          // no file: the child died before reporting
        }
        rmSync(rssFile, { force: true });
      }
      // Wait for stderr to drain so error messages are complete.
      const done = () => resolve({ ms, cpuMs, code, signal, stderr, rssKiB: o.rss ? rssKiB : undefined, timedOut });
      if (child.stderr.readableEnded) done();
      else child.stderr.once('close', done);
    });
  });
}

/** A one-line description of a failed run, for the report. */
export function describeFailure(run) {
  const why = run.timedOut ? 'timed out' : run.signal ? `killed by ${run.signal}` : `exit ${run.code}`;
  const tail = run.stderr.trim().split('\n').slice(-3).join(' | ');
  return tail ? `${why}: ${tail}` : why;
}

/** CPU time (user + sys) a running process has used so far, in ms (from /proc; 10 ms ticks). */
export function processCpuMs(pid) {
  try {
    // Fields after the command name (which may hold spaces): state is 3rd, utime 14th, stime 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Sum of a list, ignoring undefined entries; undefined when any is missing. */
export function sumOrUndefined(values) {
  return values.some((v) => v === undefined) ? undefined : values.reduce((a, b) => a + b, 0);
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
