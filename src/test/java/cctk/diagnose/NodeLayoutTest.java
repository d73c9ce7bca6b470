package cctk.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plan's nodes, their ranks and their turns: nodes on kernels of their own measure at once (one turn); nodes
 * that share a kernel (the same boot id) take turns, numbered within their kernel; the entry carries it all.
 */
class NodeLayoutTest {

    @Test
    void nodesOnKernelsOfTheirOwnMeasureAtOnce() {
        final NodeLayout l = NodeLayout.of(List.of("a", "a", "b", "b", "c"), List.of("k1", "k1", "k2", "k2", "k3"));
        assertThat(l.names()).containsExactly("a", "b", "c");
        assertThat(l.turns()).isEqualTo(1);
        final NodeLayout.Place p = NodeLayout.place(l.entry(1), 3);
        assertThat(p.node()).isEqualTo(1);
        assertThat(p.nodes()).isEqualTo(3);
        assertThat(p.index()).isEqualTo(1);
        assertThat(p.ranks()).containsExactly(2, 3);
        assertThat(p.turn()).isZero();
        assertThat(p.turns()).isEqualTo(1);
    }

    @Test
    void nodesSharingAKernelTakeTurnsWithinIt() {
        // n1, n2 and n4 on kernel A, n3 on B: A's nodes take turns 0, 1, 2 and n3 goes with the first
        final NodeLayout l = NodeLayout.of(List.of("n1", "n2", "n3", "n4", "n1"), List.of("A", "A", "B", "A", "A"));
        assertThat(l.turns()).isEqualTo(3);
        assertThat(l.entry(0)).isEqualTo("0 4 0,4 0 3");
        assertThat(NodeLayout.place(l.entry(1), 1).turn()).isEqualTo(1);
        assertThat(NodeLayout.place(l.entry(2), 2).turn()).isZero();
        final NodeLayout.Place last = NodeLayout.place(l.entry(3), 3);
        assertThat(last.turn()).isEqualTo(2);
        assertThat(last.turns()).isEqualTo(3);
    }
}
