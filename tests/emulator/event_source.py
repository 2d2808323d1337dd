"""Lambda's SQS event source mapping, played locally: pollers read the
change queue, gather a batch (up to `batch_size` messages, for up to
`window` seconds after the first; one receive when the window is 0), hand
it to the function as Lambda's SQS event, and delete the messages the
function did not list in `batchItemFailures` (ReportBatchItemFailures).
A failed invoke leaves the whole batch to reappear after the queue's
visibility timeout, as Lambda does. `concurrency` pollers run at once
(ScalingConfig.MaximumConcurrency)."""

import threading
import time

REGION = "us-east-1"


def sqs_record(message, queue_arn):
    """One message as Lambda's SQS event carries it."""
    return {
        "messageId": message["MessageId"],
        "receiptHandle": message["ReceiptHandle"],
        "body": message["Body"],
        "attributes": {},
        "messageAttributes": {},
        "md5OfBody": message.get("MD5OfBody", ""),
        "eventSource": "aws:sqs",
        "eventSourceARN": queue_arn,
        "awsRegion": REGION,
    }


class EventSource:
    """Pollers feeding `function` from the queue at `url` until stop()."""

    def __init__(self, sqs, url, function, batch_size=10, window=0.0, concurrency=1, on_batch=None):
        self.sqs, self.url, self.function = sqs, url, function
        self.arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        self.batch_size, self.window = batch_size, window
        self.on_batch = on_batch or (lambda messages, failed: None)
        self.invocations = self.failed_invocations = self.failed_items = 0
        self.errors = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._poll, daemon=True) for _ in range(concurrency)]
        for t in self._threads:
            t.start()

    def _gather(self):
        batch, first = [], None
        while len(batch) < self.batch_size and not self._stop.is_set():
            wait = 1 if first is None else max(0.0, first + self.window - time.monotonic())
            got = self.sqs.receive_message(QueueUrl=self.url, MaxNumberOfMessages=min(10, self.batch_size - len(batch)),
                                           WaitTimeSeconds=int(min(wait, 1))).get("Messages", [])
            batch += got
            if batch and first is None:
                first = time.monotonic()
            if first is not None and time.monotonic() - first >= self.window:
                break
        return batch

    def _poll(self):
        while not self._stop.is_set():
            batch = self._gather()
            if batch:
                self._invoke(batch)

    def _invoke(self, batch):
        try:
            result = self.function.invoke({"Records": [sqs_record(m, self.arn) for m in batch]})
            failed = {f.get("itemIdentifier") for f in (result or {}).get("batchItemFailures", [])}
        except Exception as e:  # the whole batch comes back after the visibility timeout
            with self._lock:
                self.invocations += 1
                self.failed_invocations += 1
                self.errors.append(str(e)[:500])
            return
        done = [m for m in batch if m["MessageId"] not in failed]
        for start in range(0, len(done), 10):
            self.sqs.delete_message_batch(QueueUrl=self.url, Entries=[
                {"Id": str(k), "ReceiptHandle": m["ReceiptHandle"]} for k, m in enumerate(done[start:start + 10])])
        with self._lock:
            self.invocations += 1
            self.failed_items += len(failed)
        self.on_batch(batch, failed)

    def stop(self):
        self._stop.set()
        for t in self._threads:
            t.join()
