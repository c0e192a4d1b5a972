import type { Env } from "../../env";
import { FilesystemStorage } from "./filesystem";
import type { FileStorage } from "./port";
import { S3Storage } from "./s3";

/** S3-compatible storage when FILE_STORAGE=s3 (its S3_* settings are then required); otherwise a folder. */
export function createFileStorage(env: Env): FileStorage {
  if (env.FILE_STORAGE === "s3")
    return new S3Storage({
      endpoint: env.S3_ENDPOINT,
      bucket: env.S3_BUCKET!,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID!,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    });
  return new FilesystemStorage(env.FILE_STORAGE_DIR);
}

export type { FileStorage } from "./port";
