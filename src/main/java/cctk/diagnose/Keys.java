package cctk.diagnose;

import cctk.comm.Store;
import java.nio.charset.StandardCharsets;

/**
 * The store keys of a diagnosis, all under {@code dg/}: one per rank to say where it is, one per node for the plan
 * and per phase for its results, one per group and mode for the communicators (never reused), and rank 0's
 * repeat plan. Values are UTF-8 text.
 * <b>Note:</b> threadsafe (no state).
 */
final class Keys {

    static final String PREFIX = "dg/";

    private Keys() {
    }

    static String who(final int rank) {
        return PREFIX + "who/" + rank;
    }

    static String plan(final String host) {
        return PREFIX + "plan/" + host;
    }

    static String names() {
        return PREFIX + "names";
    }

    static String nodeGroup(final int node) {
        return PREFIX + "n/" + node;
    }

    /** The communicator of pair {lo, hi} on {@code mode}: {@code repeat} for the confirming pass. */
    static String pair(final boolean repeat, final int mode, final int lo, final int hi) {
        return PREFIX + (repeat ? "c/" : "p/") + mode + "/" + lo + "-" + hi;
    }

    static String nodeResults(final int node, final int pass) {
        return PREFIX + "nres/" + pass + "/" + node;
    }

    /** Rank 0's word that every repeat is done: the second per-node pass may start. */
    static String secondPass() {
        return PREFIX + "pass2";
    }

    static String pairResults(final int node) {
        return PREFIX + "pres/" + node;
    }

    static String repeatResults(final int node) {
        return PREFIX + "cres/" + node;
    }

    static String recheck() {
        return PREFIX + "recheck";
    }

    static void put(final Store store, final String key, final String value) {
        store.set(key, value.getBytes(StandardCharsets.UTF_8));
    }

    static String take(final Store store, final String key) {
        return new String(store.get(key), StandardCharsets.UTF_8);
    }
}
