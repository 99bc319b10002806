package org.tessera.io.store;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body collected straight into one array of the length the response announces, so a
 * chunk is copied once from the client's buffers; the JDK's {@code ofByteArray} gathers the
 * buffers first and copies them all again at the end. Bodies without a length are gathered; a
 * body cut short of its length is an IOException. Not for HEAD, whose length is the object's.
 */
final class SizedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final byte[] bytes;
    private int length;

    private SizedBody(int size) {
        this.bytes = new byte[size];
    }

    static HttpResponse.BodySubscriber<byte[]> handle(HttpResponse.ResponseInfo response) {
        long announced = response.headers().firstValueAsLong("Content-Length").orElse(-1);
        if (announced < 0 || announced > Integer.MAX_VALUE - 8) {
            return HttpResponse.BodySubscribers.ofByteArray();
        }
        return new SizedBody((int) announced);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            int count = buffer.remaining();
            if (count > bytes.length - length) {
                body.completeExceptionally(new IOException("the response body is longer than its Content-Length of " + bytes.length + " bytes"));
                return;
            }
            buffer.get(bytes, length, count);
            length += count;
        }
    }

    @Override
    public void onError(Throwable failure) {
        body.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        if (length == bytes.length) {
            body.complete(bytes);
        } else {
            body.completeExceptionally(new IOException("the response body ended after " + length + " of its " + bytes.length + " bytes"));
        }
    }
}
