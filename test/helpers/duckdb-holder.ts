// Another program with a DuckDB file open for writing (a DuckDB shell, a notebook, a dashboard): a
// Node process of its own that opens the file and holds it until killed. Resolves once it holds it.
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './env.js';

export async function holdDuckDBFile(file: string): Promise<ChildProcess> {
  const holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { DuckDBInstance } from '@duckdb/node-api'; const i = await DuckDBInstance.create(${JSON.stringify(file)}); await i.connect(); console.log('held'); setInterval(() => {}, 1000);`,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
    });
  } catch (error) {
    holder.kill('SIGKILL');
    throw error;
  }
  return holder;
}
