import { accessSync, constants, readdirSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { delimiter, join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import type { LocalFacts } from './local-services.js';

// What `pnpm start` finds on the machine before deciding (local-services.ts), and the Redis check of the
// URL it settled on.

const PROBE_TIMEOUT_MS = 3_000;

function onPath(command: string, path: string): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A Debian cluster (/etc/postgresql/<version>/<name>) that pg_ctlcluster can start. */
function debianPostgresInstalled(path: string): boolean {
  try {
    return onPath('pg_ctlcluster', path) && readdirSync('/etc/postgresql').length > 0;
  } catch {
    return false;
  }
}

function portAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host, port, timeout: PROBE_TIMEOUT_MS });
    const done = (answers: boolean) => {
      socket.destroy();
      resolve(answers);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

export async function gatherLocalFacts(env: NodeJS.ProcessEnv): Promise<LocalFacts> {
  const [postgresAnswering, redisAnswering] = await Promise.all([portAnswers(5432), portAnswers(6379)]);
  const path = env.PATH ?? '';
  return {
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    postgres: { answering: postgresAnswering, installed: debianPostgresInstalled(path) },
    redis: { answering: redisAnswering, installed: onPath('redis-server', path) },
    root: process.getuid?.() === 0,
    apt: onPath('apt-get', path),
  };
}

const resp = (args: string[]) => `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;

/**
 * AUTH (when the URL has a password) and PING, over RESP by hand: infra has no Redis client, and one
 * exchange is all it takes to tell "wrong password" or "nothing there" before five services stumble on it.
 */
export function pingRedis(url: string): Promise<void> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(target.port || 6379);
  const commands = [['PING']];
  if (target.password) {
    const user = target.username ? [decodeURIComponent(target.username)] : [];
    commands.unshift(['AUTH', ...user, decodeURIComponent(target.password)]);
  }
  return new Promise((resolve, reject) => {
    const socket: Socket = target.protocol === 'rediss:' ? connectTls({ host, port, servername: host }) : connectTcp({ host, port });
    socket.setTimeout(PROBE_TIMEOUT_MS);
    const fail = (message: string) => {
      socket.destroy();
      reject(new Error(message));
    };
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      const replies = received.split('\r\n').slice(0, -1);
      const refused = replies.find((reply) => reply.startsWith('-'));
      if (refused) return fail(refused.slice(1));
      if (replies.length < commands.length) return;
      socket.end();
      if (replies.at(-1) === '+PONG') resolve();
      else fail(`unexpected answer to PING: ${replies.at(-1)}`);
    });
    socket.once('error', (err) => fail(err.message));
    socket.once('timeout', () => fail(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`));
    socket.write(commands.map(resp).join(''));
  });
}
