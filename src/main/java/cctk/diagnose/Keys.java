package cctk.diagnose;

import cctk.comm.Store;
import java.nio.charset.StandardCharsets;

/**
 * The store keys of a diagnosis, all under {@code dg/}: one per rank to say where it is, one per node for the plan
 * and per phase for its results, one per group and mode for the communicators (never reused), and rank 0's
 * repeat plan. Values are UTF-8 text.
 * <b>Note:</b> threadsafe (no state).
 */
public final class Keys {

    public static final String PREFIX = "dg/";

    private Keys() {
    }

    public static String who(final int rank) {
        return PREFIX + "who/" + rank;
    }

    public static String plan(final String host) {
        return PREFIX + "plan/" + host;
    }

    public static String names() {
        return PREFIX + "names";
    }

    public static String nodeGroup(final int node) {
        return PREFIX + "n/" + node;
    }

    /** The communicator of pair {lo, hi} on {@code mode}: {@code repeat} for the confirming pass. */
    public static String pair(final boolean repeat, final int mode, final int lo, final int hi) {
        return PREFIX + (repeat ? "c/" : "p/") + mode + "/" + lo + "-" + hi;
    }

    public static String nodeResults(final int node, final int pass) {
        return PREFIX + "nres/" + pass + "/" + node;
    }

    /** Rank 0's word that every repeat is done: the second per-node pass may start. */
    public static String secondPass() {
        return PREFIX + "pass2";
    }

    /** Rank {@code rank}'s compute rate in per-node pass {@code pass}. */
    public static String cpu(final int pass, final int rank) {
        return PREFIX + "cpu/" + pass + "/" + rank;
    }

    public static String pairResults(final int node) {
        return PREFIX + "pres/" + node;
    }

    public static String repeatResults(final int node) {
        return PREFIX + "cres/" + node;
    }

    public static String recheck() {
        return PREFIX + "recheck";
    }

    public static void put(final Store store, final String key, final String value) {
        store.set(key, value.getBytes(StandardCharsets.UTF_8));
    }

    public static String take(final Store store, final String key) {
        return new String(store.get(key), StandardCharsets.UTF_8);
    }
}
