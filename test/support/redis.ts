/** The machine's Redis for the tests that share rate limits through it (TEST_REDIS_URL). */
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** A connected client, or an error saying how to get a Redis: such a test fails, it is not skipped. */
export async function connectTestRedis(): Promise<Redis> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis is not reachable at ${TEST_REDIS_URL} (${(error as Error).message}): start redis-server, or set TEST_REDIS_URL to one`);
  }
}
