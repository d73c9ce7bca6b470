package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import cctk.comm.MemoryStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RankExchangeTest {

    /** Rank 0 publishes, is done and drops the run's keys; rank 1, slower, still reads what rank 0 published. */
    @Test
    void rankZeroDropsNothingASlowerRankHasStillToRead() throws Exception {
        final MemoryStore store = new MemoryStore(2, Duration.ofSeconds(5));
        final RankExchange zero = new RankExchange(store, "bench/j/tcp/w2/", 0, 2);
        final RankExchange one = new RankExchange(store, "bench/j/tcp/w2/", 1, 2);
        final CompletableFuture<Void> rankZero = CompletableFuture.runAsync(() -> {
            zero.fromZero("files", "/out/profile.json");
            zero.dropAll();
        });
        Thread.sleep(300); // rank 0 is past its last read long before rank 1 begins
        assertThat(store.keys()).contains("bench/j/tcp/w2/files/0");
        assertThat(rankZero).isNotDone();
        assertThat(one.fromZero("files", null)).isEqualTo("/out/profile.json");
        one.dropAll();
        rankZero.get(5, TimeUnit.SECONDS);
        assertThat(store.keys()).noneMatch(k -> k.startsWith("bench/j/tcp/w2/"));
    }
}
