"""Partner webhook delivery off the SQS FIFO queue (no API routes)."""
