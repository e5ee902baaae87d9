import busboy from 'busboy';
import type { Request } from 'express';
import { AppError } from '@partner/contracts';

/** Reads the named files of a multipart/form-data body into memory, within a per-file size limit. */
export function readMultipartFiles(
  req: Request,
  options: { fields: readonly string[]; maxFileBytes: number },
): Promise<Map<string, Buffer>> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(new AppError('unsupported_media_type', 'Send the files as multipart/form-data.'));
  }
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    let failure: AppError | null = null;
    const fail = (error: AppError) => (failure ??= error);
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: options.maxFileBytes, files: options.fields.length, fields: 0 } });
    } catch {
      return reject(new AppError('invalid_request', 'The multipart body is malformed (boundary missing).'));
    }
    parser.on('file', (name, stream) => {
      if (!options.fields.includes(name) || files.has(name)) {
        fail(new AppError('invalid_request', `Unexpected file field "${name}"; send ${options.fields.join(', ')}.`, { param: name }));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () =>
        fail(new AppError('payload_too_large', `${name}: files are limited to ${options.maxFileBytes} bytes.`, { param: name })),
      );
      stream.on('end', () => files.set(name, Buffer.concat(chunks)));
    });
    parser.on('field', (name) =>
      fail(new AppError('invalid_request', `Unexpected field "${name}"; only files are accepted.`, { param: name })),
    );
    parser.on('filesLimit', () => fail(new AppError('invalid_request', `Send at most ${options.fields.length} files.`)));
    parser.on('error', () => reject(new AppError('invalid_request', 'The multipart body is malformed.')));
    parser.on('close', () => (failure ? reject(failure) : resolve(files)));
    req.pipe(parser);
  });
}
