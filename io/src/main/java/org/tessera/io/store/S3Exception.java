package org.tessera.io.store;

import java.io.IOException;
import java.io.Serial;

/**
 * A failed S3 request: its message names the request, the {@code s3://} URI, the endpoint and what
 * S3 said; {@link #status()} is the HTTP status (0 when no answer came) and {@link #code()} S3's
 * error code ({@code NoSuchBucket}, {@code InvalidAccessKeyId}, {@code SlowDown}, ...; "" when none).
 */
public final class S3Exception extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    S3Exception(String message, int status, String code, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.code = code;
    }

    /** The exception for a final answer that is not a success, with a hint for the common causes. */
    static S3Exception of(String what, S3Settings settings, S3Requests.Answer answer, String suffix) {
        String code = answer.errorCode();
        String endpoint = settings.endpoint() == null ? "AWS S3" : "the endpoint " + settings.endpoint();
        String said = code.isEmpty() ? "HTTP " + answer.status() : "HTTP " + answer.status() + " " + code
                + (answer.errorMessage().isEmpty() ? "" : " (" + answer.errorMessage() + ")");
        String hint = switch (code) {
            case "NoSuchBucket" -> ": the bucket does not exist at " + endpoint;
            case "InvalidAccessKeyId", "SignatureDoesNotMatch" -> ": " + endpoint + " refused the credentials (access key "
                    + settings.accessKey() + "); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
            case "AccessDenied" -> ": " + endpoint + " denied access"
                    + (settings.signed() ? " to access key " + settings.accessKey() : " to anonymous requests; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
            case "SlowDown" -> ": " + endpoint + " is throttling requests";
            default -> answer.status() == 403 && code.isEmpty() ? ": " + endpoint + " refused the request (bad credentials or no permission)" : " from " + endpoint;
        };
        return new S3Exception(what + ": " + said + suffix + hint, answer.status(), code, null);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
