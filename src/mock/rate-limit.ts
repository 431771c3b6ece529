// --rate-limit N: a token bucket per key (or per client address without a key) holding up to N
// tokens and refilled at N per second. An empty bucket means 429 with Retry-After in seconds.

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(readonly perSecond: number) {}

  take(bucketId: string, nowMs: number): RateDecision {
    const bucket = this.buckets.get(bucketId) ?? { tokens: this.perSecond, updatedMs: nowMs };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((nowMs - bucket.updatedMs) / 1000) * this.perSecond);
    bucket.updatedMs = nowMs;
    this.buckets.set(bucketId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, remaining: Math.floor(bucket.tokens) };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)) };
  }

  reset(): void {
    this.buckets.clear();
  }
}
