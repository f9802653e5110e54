// The burster of bench/burst.ts, in a process of its own so that opening a thousand connections does not
// delay the bystander's measurements in the parent. Reads its orders as JSON from argv[2]; prints
// "sending" when it starts, then one line of JSON: the answers' status counts and one body per status.
import http from 'node:http';

interface Orders {
  origin: string;
  cookie: string;
  body: string;
  attempts: number;
}

const orders = JSON.parse(process.argv[2] ?? '{}') as Orders;
// Every attempt on a connection of its own, all sent at once.
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

function attempt(): Promise<{ status: string; body: string }> {
  return new Promise((resolve) => {
    const request = http.request(
      `${orders.origin}/api/withdrawals`,
      {
        method: 'POST',
        agent,
        headers: { origin: orders.origin, cookie: orders.cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(orders.body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: String(response.statusCode ?? 0), body: Buffer.concat(chunks).toString('utf8').slice(0, 300) }));
        response.on('error', (error) => resolve({ status: 'network error', body: error.message }));
      },
    );
    request.on('error', (error) => resolve({ status: 'network error', body: error.message }));
    request.end(orders.body);
  });
}

process.stdout.write('sending\n');
const started = performance.now();
const answers = await Promise.all(Array.from({ length: orders.attempts }, attempt));
const seconds = (performance.now() - started) / 1000;
const counts: Record<string, number> = {};
const examples: Record<string, string> = {};
for (const answer of answers) {
  counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  examples[answer.status] ??= answer.body;
}
process.stdout.write(`${JSON.stringify({ counts, examples, seconds })}\n`);
agent.destroy();
