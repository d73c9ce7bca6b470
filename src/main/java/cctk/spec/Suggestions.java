package cctk.spec;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" for misspelt keys and names: the closest known word by edit distance. */
final class Suggestions {

    private Suggestions() {
    }

    /** {@code ; did you mean 'x'?} for the closest candidate within reach, or an empty string. */
    static String didYouMean(final String word, final Collection<String> candidates) {
        final String best = closest(word, candidates);
        return best == null ? "" : "; did you mean '" + best + "'?";
    }

    /** The closest candidate, or null when none is within a third of the word's length (at least 2 edits). */
    static String closest(final String word, final Collection<String> candidates) {
        final String best = nearest(word, candidates);
        if (best == null) {
            return null;
        }
        final int reach = Math.max(2, word.length() / 3);
        return distance(word.toLowerCase(Locale.ROOT), best.toLowerCase(Locale.ROOT)) <= reach ? best : null;
    }

    /** The closest candidate however far (for names that must be one of a known set). */
    static String nearest(final String word, final Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String c : candidates) {
            final int d = distance(word.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance with two rows. */
    static int distance(final String a, final String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            final int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
