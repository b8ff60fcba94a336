// A mail's bytes from smtp-server's data stream: kept up to the size limit, the rest read and
// dropped (the client is still sending; the answer comes after its final dot), so a 10 MB mail
// costs at most the limit in memory. Undefined when the mail was over the limit.
import type { SMTPServerDataStream } from 'smtp-server';
import { MAIL_MAX_BYTES } from './smtp-answers.js';

export function readMail(stream: SMTPServerDataStream, maxBytes = MAIL_MAX_BYTES): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0; // over the limit: nothing kept
    });
    stream.once('error', reject);
    stream.once('end', () => resolve(size > maxBytes || stream.sizeExceeded ? undefined : Buffer.concat(chunks)));
  });
}
