package cctk.launch;

import cctk.rank.RankIdentity;
import cctk.rank.Rendezvous;
import java.time.Duration;

/**
 * A stand-in rank for launcher tests; it says hello with the CPUs it may run on. Args: {@code exit RANK CODE} (that rank exits with CODE at once, the
 * others sleep), or {@code die RANK} (all join the store, that rank halts, the others wait at a barrier).
 */
public final class TinyRank {

    private TinyRank() {
    }

    public static void main(final String[] args) throws Exception {
        final RankIdentity id = RankIdentity.fromEnvironment(cctk.Environment.process());
        final cctk.CpuList cpus = cctk.CpuList.allowed();
        System.out.println("hello from " + id.rank() + " of " + id.worldSize() + " on CPUs "
            + (cpus == null ? "unknown" : cpus.text()));
        System.err.println("note from " + id.rank());
        System.out.flush();
        final int chosen = Integer.parseInt(args[1]);
        if (args[0].equals("exit")) {
            if (id.rank() == chosen) {
                System.exit(Integer.parseInt(args[2]));
            }
            Thread.sleep(id.worldSize() > 1 && chosen >= 0 ? 60_000 : 0);
            return;
        }
        try (Rendezvous store = Rendezvous.join(id, Rendezvous.secret(cctk.Environment.process()), "localhost",
                Duration.ofSeconds(20),
                System.err::println)) {
            store.barrier("joined");
            if (id.rank() == chosen) {
                Runtime.getRuntime().halt(9);
            }
            store.barrier("after");
        } catch (final cctk.CctkException e) {
            System.err.println("failed: " + e.getMessage());
            System.exit(e.exitCode().code());
        }
    }
}
