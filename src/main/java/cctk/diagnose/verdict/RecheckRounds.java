package cctk.diagnose.verdict;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The repeats of a diagnosis in rounds, as the tournament runs its pairs: a pair measures all its modes to
 * recheck in one go, and no node is in two pairs of one round (first fit, in order). Text form, one round a line:
 * {@code a-b:m,m a-b:m}, which every node leader reads from the store.
 * <b>Note:</b> threadsafe (no state).
 */
public final class RecheckRounds {

    private RecheckRounds() {
    }

    /** One pair of a round and the modes it measures again. */
    public record Item(int a, int b, List<Integer> modes) {
    }

    /** The rechecks grouped by pair and packed into rounds of disjoint pairs. */
    public static List<List<Item>> schedule(final List<Recheck> rechecks) {
        final Map<Long, List<Integer>> byPair = new LinkedHashMap<>();
        for (final Recheck r : rechecks) {
            final List<Integer> modes = byPair.computeIfAbsent(((long) r.a() << 32) | r.b(), k -> new ArrayList<>());
            if (!modes.contains(r.mode())) {
                modes.add(r.mode());
            }
        }
        final List<List<Item>> rounds = new ArrayList<>();
        final List<BitSet> busy = new ArrayList<>();
        for (final Map.Entry<Long, List<Integer>> e : byPair.entrySet()) {
            final int a = (int) (e.getKey() >>> 32);
            final int b = (int) (long) e.getKey();
            int round = 0;
            while (round < rounds.size() && (busy.get(round).get(a) || busy.get(round).get(b))) {
                round++;
            }
            if (round == rounds.size()) {
                rounds.add(new ArrayList<>());
                busy.add(new BitSet());
            }
            rounds.get(round).add(new Item(a, b, List.copyOf(e.getValue())));
            busy.get(round).set(a);
            busy.get(round).set(b);
        }
        return rounds;
    }

    /** The rounds as text, one line per round. */
    public static String text(final List<List<Item>> rounds) {
        final StringBuilder sb = new StringBuilder();
        for (final List<Item> round : rounds) {
            final List<String> items = new ArrayList<>();
            for (final Item i : round) {
                items.add(i.a() + "-" + i.b() + ":" + String.join(",", i.modes().stream().map(String::valueOf)
                        .toList()));
            }
            sb.append(String.join(" ", items)).append('\n');
        }
        return sb.toString();
    }

    /** The rounds read back from {@link #text}. */
    public static List<List<Item>> parse(final String text) {
        final List<List<Item>> rounds = new ArrayList<>();
        for (final String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            final List<Item> round = new ArrayList<>();
            for (final String item : line.trim().split(" ")) {
                final String[] pairModes = item.split(":");
                final String[] ab = pairModes[0].split("-");
                final List<Integer> modes = new ArrayList<>();
                for (final String m : pairModes[1].split(",")) {
                    modes.add(Integer.parseInt(m));
                }
                round.add(new Item(Integer.parseInt(ab[0]), Integer.parseInt(ab[1]), List.copyOf(modes)));
            }
            rounds.add(round);
        }
        return rounds;
    }
}
