package cctk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The party an Incomplete line names, from diagnoses as the ranks wrote them on the two-node test cluster. */
class BlameTest {

    private static final String AT = "all_reduce float32 sum 131072 B";

    @Test
    void aFrozenRankIsTheOneOthersWaitedOnThatWaitedOnNobody() {
        // SIGSTOP of rank 2: rank 3 waits on it, the others wait on each other and on rank 3, so on rank 2 too;
        // Slurm's SIGCONT+SIGTERM then lets rank 2 say it was stopped by a signal
        final String line = Blame.of(4, Map.of(
            0, "rank 0 waited 8.0 s without progress during all_reduce for rank 3 (not sending) over eth0, rank 1"
                + " (not sending) over eth0; the peer stalled or died",
            1, "rank 1 waited 8.0 s without progress during all_reduce for rank 0 (not sending) over eth0; the peer",
            2, Blame.STOPPED + "cancelled: SIGTERM",
            3, "rank 3 waited 8.0 s without progress during all_reduce for rank 2 (not sending) over eth1, rank 0"
                + " (not reading) over eth0; the peer stalled or died"), AT, "fallback");
        assertThat(line).isEqualTo("rank 2 stalled (ranks 0, 1, 3 waited 8.0 s for it) during " + AT + " over eth1");
    }

    @Test
    void aFrozenRankWokenAfterItsPeersGaveUpIsStillTheOneThatStalled() {
        // the two-node IT under load: SIGCONT let rank 2 run again before the job ended, and it waited in turn
        final String line = Blame.of(4, Map.of(
            0, "rank 0 waited 8.0 s without progress during all_reduce for rank 2 (not sending) over eth0; the peer",
            1, "rank 1 waited 8.0 s without progress during all_reduce for rank 2 (not sending) over lo; the peer",
            2, "rank 2 waited 8.1 s without progress during all_reduce for rank 1 (not reading) over lo; the peer",
            3, "rank 3 waited 8.0 s without progress during all_reduce for rank 2 (not sending) over lo, rank 0"
                + " (not reading) over eth0; the peer stalled or died"), AT, "fallback");
        assertThat(line).startsWith("rank 2 stalled (ranks 0, 1, 3 waited 8.0 s for it) during " + AT + " over ")
                .containsPattern("over (eth0,lo|lo,eth0)$");
    }

    @Test
    void theLineIsTheSameWhateverOrderTheDiagnosesCameIn() {
        // the woken rank's own, longer wait first: the seconds are still those its waiters waited for it
        final java.util.LinkedHashMap<Integer, String> said = new java.util.LinkedHashMap<>();
        said.put(2, "rank 2 waited 8.1 s without progress during all_reduce for rank 1 (not reading) over lo; the x");
        said.put(3, "rank 3 waited 8.0 s without progress during all_reduce for rank 2 (not sending) over lo; the x");
        said.put(0, "rank 0 waited 8.0 s without progress during all_reduce for rank 2 (not sending) over eth0; x");
        said.put(1, "rank 1 waited 8.0 s without progress during all_reduce for rank 2 (not sending) over lo; the x");
        assertThat(Blame.of(4, said, AT, "fallback"))
                .isEqualTo("rank 2 stalled (ranks 0, 1, 3 waited 8.0 s for it) during " + AT + " over eth0,lo");
    }

    @Test
    void aKilledRankIsNamedAsDeadNotTheInternalVote() {
        final String line = Blame.of(3, Map.of(
            0, "rank 0: rank 1 (10.10.1.2:4000) over eth0 closed the connection during all_reduce; rank 1 probably"
                + " died. The job cannot continue.",
            2, Blame.STOPPED + "cancelled: SIGTERM"), AT, "x");
        assertThat(line).isEqualTo("rank 1 died (its connections closed) during " + AT + " over eth0");
    }

    @Test
    void aKilledRankIsNamedWhenOnlyTheStoreNoticeArrived() {
        // kill -9 of rank 1 on the two-node cluster: the store's notice reached every rank before any diagnosis
        final String notice = "rank 1 (host node1) disconnected from the rendezvous store: it exited or crashed.";
        final String line = Blame.of(4, Map.of(0, notice), AT, notice);
        assertThat(line).isEqualTo("rank 1 died (its connections closed) during " + AT);
    }

    @Test
    void aRankOfTheOtherNodeThatDiedIsNamedNotTheLeaderThatEndedAfterIt() {
        // hierarchical, kill -9 of rank 3: only its node's leader, rank 2, saw it die (in shared memory); rank 0 lost
        // rank 2's TCP links when rank 2 ended, after the store had reported rank 3 gone without a goodbye
        final String notice = "rank 3 (host node2) disconnected from the rendezvous store: it exited or crashed.";
        final String mine = Blame.withStoreNotice("rank 0: rank 2 (10.10.1.2:4000) over eth0 closed the connection"
            + " during all_reduce; rank 2 probably died. The job cannot continue.", notice);
        assertThat(mine).endsWith(" The rendezvous store reported before: " + notice);
        assertThat(Blame.of(4, Map.of(0, mine), AT, mine)).isEqualTo("rank 3 died (its connections closed) during " + AT);
        // without the store's notice the leader is all rank 0 saw
        assertThat(Blame.of(4, Map.of(0, "rank 0: rank 2 (10.10.1.2:4000) over eth0 closed the connection during"
            + " all_reduce; rank 2 probably died."), AT, "x")).isEqualTo("rank 2 died (its connections closed) during "
            + AT + " over eth0");
    }

    @Test
    void aCrashThatMadeSlurmEndTheStepIsNamedNotTheSignal() {
        // srun --kill-on-bad-exit: SIGTERM reached rank 0 before any peer's diagnosis, after the store's notice
        final String notice = "rank 3 (host node2) disconnected from the rendezvous store: it exited or crashed.";
        final String cause = "cancelled: SIGTERM (scancel, or Slurm ending the job or step)";
        final String mine = Blame.withStoreNotice(Blame.STOPPED + cause, notice);
        assertThat(Blame.of(4, Map.of(0, mine), AT, cause)).isEqualTo("rank 3 died (its connections closed) during "
            + AT);
        // a signal with no crashed rank keeps its cause
        assertThat(Blame.of(4, Map.of(0, Blame.STOPPED + cause), AT, cause)).isEqualTo(cause + " during " + AT
            + "; ranks 1, 2, 3 said nothing (died or stalled)");
    }

    @Test
    void theStoreNoticeIsAddedOnlyWhereItTellsMore() {
        final String notice = "rank 1 (host node1) disconnected from the rendezvous store: it exited or crashed.";
        assertThat(Blame.withStoreNotice("x", null)).isEqualTo("x");
        assertThat(Blame.withStoreNotice(notice, notice)).isEqualTo(notice);
        final String saw = "rank 0: rank 1 (process 42) is gone during reduce of 4096 bytes of float32 in shared"
            + " memory; rank 1 probably died. The job cannot continue.";
        assertThat(Blame.withStoreNotice(saw, notice)).as("it saw rank 1 die itself").isEqualTo(saw);
        final String other = "rank 3: rank 2 left the shared-memory group during reduce in shared memory; rank 2"
            + " probably died. The job cannot continue.";
        assertThat(Blame.withStoreNotice(other, notice)).isEqualTo(other + " The rendezvous store reported before: "
            + notice);
    }

    @Test
    void aNicDownOnOneHostIsNamed() {
        final String line = Blame.of(2, Map.of(
            0, "rank 0 waited 8.0 s without progress during all_gather for rank 1 (not sending) over eth1; the",
            1, "rank 1 waited 8.0 s without progress during all_gather for rank 0 (not reading) over eth1 (DOWN on"
                + " host node2); the peer stalled"), AT, "x");
        assertThat(line).startsWith("NIC eth1 on host node2 went down during " + AT + "; ");
    }

    @Test
    void aSignalWithNoFaultKeepsItsCause() {
        assertThat(Blame.of(2, Map.of(0, Blame.STOPPED + "time limit", 1, Blame.STOPPED + "time limit"), AT,
            "time limit: SIGUSR1")).isEqualTo("time limit: SIGUSR1 during " + AT);
    }
}
