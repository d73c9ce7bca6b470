package cctk.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import java.io.EOFException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Java's exceptions without a message (end of stream, closed channels) never reach a message as "null". */
@Timeout(60)
class NullMessagesTest {

    @Test
    void aStoreThatHangsUpSaysWhyNotNull() throws Exception {
        try (ServerSocket hangsUp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            final Thread t = new Thread(() -> {
                while (!hangsUp.isClosed()) {
                    try (Socket s = hangsUp.accept()) {
                        s.getInputStream().available(); // then closed at once: the client reads end of stream
                    } catch (final java.io.IOException e) {
                        return;
                    }
                }
            });
            t.setDaemon(true);
            t.start();
            assertThatThrownBy(() -> StoreClient.connect("127.0.0.1", hangsUp.getLocalPort(), 1, 2, "h1",
                    "secret-of-the-job".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(2)))
                    .isInstanceOf(CctkException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("null").doesNotContain("()"));
        }
    }

    @Test
    void anErrorWithoutWordsTakesItsCausesMeaning() {
        assertThat(new CctkException(ExitCode.ENVIRONMENT, null, new EOFException()).getMessage())
                .isEqualTo("the other end closed the connection");
        assertThat(new CctkException(ExitCode.ENVIRONMENT, null).getMessage()).isNotNull();
    }
}
