// Container health check: exits 0 when the service in this container answers GET /health/ready
// on its PORT with a 2xx, 1 otherwise. Node has fetch, so the slim image needs no curl.
const port = process.env.PORT ?? '8080';
const path = process.argv[2] ?? '/health/ready';
try {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
