#!/usr/bin/env node
// What this machine charges for calls into its kernel, measured from Node: a system call (getuid),
// the first write to a fresh page of memory (a page fault) and a round trip through a pipe to a
// child process (two context switches and four system calls). Lighthouse's benchmarkIndex measures
// JavaScript that only computes; a browser's processes talk by IPC and its V8 maps fresh pages and
// protects code pages, and an HTTP server is system calls. Two machines with the same
// benchmarkIndex gave the same build Lighthouse TBT 3× apart and the bare Fastify figure 2.8×
// apart (bench/why.md, the seventeenth pass); these three numbers tell such machines apart.
// `npm run bench` writes them in RESULTS.md's Machine section. Alone: node bench/kernel-cost.mjs
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];
const now = () => Number(process.hrtime.bigint());

/**
 * Nanoseconds per `getuid` from Node: a system call with no work in it (glibc does not cache it),
 * and an integer back, so Node's own part is small (tens of ns).
 */
function syscallNs() {
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const n = 100_000;
    const t0 = now();
    for (let i = 0; i < n; i++) process.getuid();
    rounds.push((now() - t0) / n);
  }
  return median(rounds);
}

/** Microseconds per page for the first write to each 4-kB page of fresh memory (64 MB, 5 times). */
function pageFaultUs() {
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    // A large unpooled buffer is its own mapping: its pages are not there until first written.
    const b = Buffer.allocUnsafeSlow(64 * 2 ** 20);
    const t0 = now();
    for (let i = 0; i < b.length; i += 4096) b[i] = 1;
    rounds.push((now() - t0) / (b.length / 4096) / 1000);
  }
  return median(rounds);
}

/**
 * Microseconds per one-byte round trip to a child Node process through its stdin and stdout: the
 * median of 2,000 (single trips move with where the scheduler puts the two processes).
 */
function pipeRoundTripUs() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', 'process.stdin.on("data", (d) => process.stdout.write(d))'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const n = 2_000;
    const trips = [];
    let warm = 200; // the first 200 warm both sides up
    let t0 = 0;
    child.on('error', reject);
    child.stdout.on('data', () => {
      if (warm > 0) warm--;
      else trips.push(now() - t0);
      if (trips.length === n) {
        child.kill();
        resolve(median(trips) / 1000);
        return;
      }
      t0 = now();
      child.stdin.write('x');
    });
    t0 = now();
    child.stdin.write('x');
  });
}

/** The three figures, rounded: `{ syscallNs, pageFaultUs, pipeRoundTripUs }`. */
export async function kernelCost() {
  const syscall = syscallNs();
  const fault = pageFaultUs();
  const pipe = await pipeRoundTripUs();
  return { syscallNs: Math.round(syscall), pageFaultUs: Number(fault.toFixed(2)), pipeRoundTripUs: Number(pipe.toFixed(1)) };
}

/** The figures as RESULTS.md's Machine section writes them. */
export function describeKernelCost(k) {
  return `a system call from Node (getuid) ${k.syscallNs} ns, a fresh page's first write ${k.pageFaultUs} µs, a pipe round trip to a child Node process ${k.pipeRoundTripUs} µs (median) (bench/kernel-cost.mjs)`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeKernelCost(await kernelCost()));
}
