package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.comm.DType;
import cctk.comm.ReduceOp;
import cctk.results.nccltests.NcclTests;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The element types and operators result files may name: every one cctk measures, and nothing else. */
class KnownNamesTest {

    @Test
    void everyTypeAndOperatorCctkMeasuresIsReadBack() {
        assertThat(Checks.DTYPES).containsAll(Arrays.stream(DType.values()).map(DType::specName).toList());
        assertThat(Checks.OPS).containsAll(Arrays.stream(ReduceOp.values()).map(ReduceOp::specName).toList());
        assertThat(NcclTests.dtype("half")).isEqualTo("float16");
        assertThat(NcclTests.op("none")).isNull();
    }

    @Test
    void anyOtherNameIsAnErrorNamingIt() {
        assertThatThrownBy(() -> Checks.dtype("dtype", "=cmd|' /C calc'!A0")).hasMessageStartingWith(
            "dtype is '=cmd|' /C calc'!A0': not an element type");
        assertThatThrownBy(() -> Checks.op("op", "@SUM(1)")).hasMessageStartingWith("op is '@SUM(1)': not an operator");
        assertThatThrownBy(() -> NcclTests.dtype("-2+3+cmd")).hasMessageStartingWith("type is '-2+3+cmd'");
        assertThatThrownBy(() -> NcclTests.op("+1")).hasMessageStartingWith("redop is '+1'");
    }
}
