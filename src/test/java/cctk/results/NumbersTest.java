package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class NumbersTest {

    @Test
    void fitUsesTwoThenOneThenNoDecimalsThenAnExponent() {
        assertThat(Numbers.fit(43.1949, 7)).isEqualTo("  43.19");
        assertThat(Numbers.fit(1234.56, 7)).isEqualTo("1234.56");
        assertThat(Numbers.fit(12345.67, 7)).isEqualTo("12345.7");
        assertThat(Numbers.fit(123456.7, 7)).isEqualTo(" 123457");
        assertThat(Numbers.fit(1234567.0, 7)).isEqualTo("1234567");
        assertThat(Numbers.fit(12345678.0, 7)).isEqualTo("1.2e+07");
        assertThat(Numbers.fit(0.004, 7)).isEqualTo("   0.00");
        assertThat(Numbers.fit(Double.NaN, 7)).isEqualTo("    N/A");
        assertThat(Numbers.fit(0.0904, 9, 3)).isEqualTo("    0.090");
        for (final double v : new double[] {1e-9, 3.3, 9.99e15, -42.5}) {
            assertThat(Numbers.fit(v, 7)).hasSize(7);
        }
    }

    @Test
    void machineAndHumanForms() {
        assertThat(Numbers.grouped(1_048_576)).isEqualTo("1,048,576");
        assertThat(Numbers.fixed(4.0, 2)).isEqualTo("4.00");
        assertThat(Numbers.plain(64.7812345)).isEqualTo("64.7812");
        assertThat(Numbers.plain(1.5e-7)).isEqualTo("0.00000015");
        assertThat(Numbers.plain(Double.POSITIVE_INFINITY)).isEmpty();
        assertThat(Numbers.plain(0)).isEqualTo("0");
    }

    @Test
    void sizesInTheUnitThatDividesThem() {
        assertThat(Numbers.size(1L << 20)).isEqualTo("1 MiB");
        assertThat(Numbers.size(10_000_000)).isEqualTo("10 MB");
        assertThat(Numbers.size(100_000_000)).isEqualTo("100 MB");
        assertThat(Numbers.size(1_000)).isEqualTo("1 KB");
        assertThat(Numbers.size(1_500_000)).isEqualTo("1500 KB");
        assertThat(Numbers.size(999)).isEqualTo("999 B");
        assertThat(Numbers.size(1_000_001)).isEqualTo("1.00 MB");
        assertThat(Numbers.size((16L << 20) - 16)).isEqualTo("16.00 MiB");
        assertThat(Numbers.size(1_500_000 - 16)).isEqualTo("1.50 MB");
        assertThat(Numbers.size(1024_000)).isEqualTo("1000 KiB");
    }

    @Test
    void generalIsCsPercentG() {
        assertThat(Numbers.general(0)).isEqualTo("0");
        assertThat(Numbers.general(12)).isEqualTo("12");
        assertThat(Numbers.general(999_999)).isEqualTo("999999");
        assertThat(Numbers.general(1_234_567)).isEqualTo("1.23457e+06");
        assertThat(Numbers.general(12.345678)).isEqualTo("12.3457");
        assertThat(Numbers.general(0.5)).isEqualTo("0.5");
        assertThat(Numbers.general(0.00001234)).isEqualTo("1.234e-05");
        assertThat(Numbers.general(Double.NaN)).isEqualTo("nan");
    }
}
