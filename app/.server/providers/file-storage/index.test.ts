import { expect, test } from "vitest";
import { ConfigError, parseEnv } from "../../env";
import { createFileStorage } from "./index";

/** Which storage the settings choose (README "Configuration", .env.example). */
test("a folder by default, under data/files unless FILE_STORAGE_DIR says otherwise", () => {
  expect(createFileStorage(parseEnv({})).name).toBe("filesystem");
  expect(parseEnv({}).FILE_STORAGE_DIR).toBe("data/files");
  expect(parseEnv({ FILE_STORAGE_DIR: "/srv/receipts" }).FILE_STORAGE_DIR).toBe("/srv/receipts");
});

test("FILE_STORAGE=s3 needs its bucket and keys, then uses the bucket", () => {
  expect(() => parseEnv({ FILE_STORAGE: "s3" })).toThrow(ConfigError);
  expect(() => parseEnv({ FILE_STORAGE: "s3" })).toThrow(/S3_BUCKET[\s\S]*S3_ACCESS_KEY_ID[\s\S]*S3_SECRET_ACCESS_KEY/);
  expect(() =>
    parseEnv({ FILE_STORAGE: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k", S3_ENDPOINT: "not a url" }),
  ).toThrow(ConfigError);
  const env = parseEnv({
    FILE_STORAGE: "s3",
    S3_ENDPOINT: "http://127.0.0.1:4569",
    S3_BUCKET: "receipts",
    S3_ACCESS_KEY_ID: "key",
    S3_SECRET_ACCESS_KEY: "secret",
  });
  expect(env.S3_REGION).toBe("us-east-1");
  expect(createFileStorage(env).name).toBe("s3");
  expect(() => parseEnv({ FILE_STORAGE: "ftp" })).toThrow(ConfigError);
});
