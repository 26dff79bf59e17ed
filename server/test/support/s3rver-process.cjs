// An s3rver process for tests and benchmarks: prints {"port"} on its first line, stores under
// S3RVER_DIR with one bucket S3RVER_BUCKET, and exits when its parent's stdin closes.
// s3rver encrypts list continuation tokens with DES, which Node's OpenSSL 3 only offers with the
// legacy provider; so it runs in its own process with that flag (node --openssl-legacy-provider).

const S3rver = require(process.env.S3RVER_MODULE || 's3rver');
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: process.env.S3RVER_DIR,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET }],
});
// s3rver lacks two multipart calls the tus S3 store makes: ListParts (GET ?uploadId) to learn an
// upload's offset and AbortMultipartUpload (DELETE ?uploadId) to terminate one. They are answered
// here from s3rver's own part files, ahead of its router.
const fs = require('node:fs');
const path = require('node:path');
const partsDir = (bucket, uploadId) => path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
const noSuchUpload = (ctx) => {
  ctx.status = 404;
  ctx.type = 'application/xml';
  ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
};
server.middleware.unshift(async (ctx, next) => {
  const uploadId = ctx.query.uploadId;
  // Path-style: /<bucket>/<key>
  const slash = ctx.path.indexOf('/', 1);
  const m = slash > 0 ? [ctx.path, ctx.path.slice(1, slash), ctx.path.slice(slash + 1)] : null;
  if (!uploadId || !m || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
  const dir = partsDir(m[1], uploadId);
  if (!fs.existsSync(dir)) return noSuchUpload(ctx);
  if (ctx.method === 'DELETE') {
    fs.rmSync(dir, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  const marker = Number(ctx.query['part-number-marker'] || 0);
  // A part counts once s3rver has finished it (its .md5 file is written last).
  const parts = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md5'))
    .map((f) => Number(f.slice(0, -4)))
    .filter((n) => n > marker)
    .sort((a, b) => a - b);
  const xml = parts
    .map((n) => {
      const file = path.join(dir, String(n));
      const st = fs.statSync(file);
      const md5 = fs.readFileSync(file + '.md5', 'utf8');
      return (
        '<Part><PartNumber>' +
        n +
        '</PartNumber><LastModified>' +
        st.mtime.toISOString() +
        '</LastModified><ETag>&quot;' +
        md5 +
        '&quot;</ETag><Size>' +
        st.size +
        '</Size></Part>'
      );
    })
    .join('');
  ctx.type = 'application/xml';
  ctx.body =
    '<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>' +
    m[1] +
    '</Bucket><Key>' +
    m[2] +
    '</Key><UploadId>' +
    uploadId +
    '</UploadId><PartNumberMarker>' +
    marker +
    '</PartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>' +
    xml +
    '</ListPartsResult>';
});
server.run().then((addr) => process.stdout.write(JSON.stringify({ port: addr.port }) + '\n'));
// Dies with its parent: stdin closes when the test process goes away.
process.stdin.on('end', () => process.exit(0)).resume();
