package cctk.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class RankIdentityTest {

    private static Map<String, String> slurm() {
        final Map<String, String> env = new HashMap<>();
        env.put("SLURM_PROCID", "5");
        env.put("SLURM_NTASKS", "99");
        env.put("SLURM_STEP_NUM_TASKS", "8");
        env.put("SLURM_LOCALID", "1");
        env.put("SLURM_NODEID", "1");
        env.put("SLURM_JOB_NODELIST", "nid[001-004]");
        env.put("SLURM_STEP_NODELIST", "gpu-[01-02]x[1-2]");
        env.put("SLURM_JOB_ID", "123456");
        env.put("SLURM_STEP_ID", "3");
        env.put("RANK", "7");
        return env;
    }

    @Test
    void slurmPrefersStepVariablesAndDerivesThePort() {
        final RankIdentity id = RankIdentity.fromEnvironment(cctk.Environment.of(slurm()));
        assertThat(id.source()).isEqualTo(RankIdentity.Source.SLURM);
        assertThat(id.rank()).isEqualTo(5);
        assertThat(id.worldSize()).isEqualTo(8);
        assertThat(id.localRank()).isEqualTo(1);
        assertThat(id.nodeIndex()).isEqualTo(1);
        assertThat(id.nodes()).containsExactly("gpu-01x1", "gpu-01x2", "gpu-02x1", "gpu-02x2");
        assertThat(id.jobId()).isEqualTo("123456");
        assertThat(id.stepId()).isEqualTo(3);
        assertThat(id.rendezvousHost()).isEqualTo("gpu-01x1");
        assertThat(id.rendezvousPort()).isEqualTo(RankIdentity.derivedPort(123456, 3))
                .isBetween(20_000, 32_767);
        assertThat(id.describe()).contains("rank 5/8", "gpu-01x2", "job 123456.3", "via slurm");
    }

    @Test
    void stepsOfOneJobAndNeighbouringJobsGetDifferentPorts() {
        assertThat(RankIdentity.derivedPort(1000, 0)).isNotEqualTo(RankIdentity.derivedPort(1000, 1));
        assertThat(RankIdentity.derivedPort(1000, 0)).isNotEqualTo(RankIdentity.derivedPort(1001, 0));
        assertThat(RankIdentity.derivedPort(1000, 5)).isNotEqualTo(RankIdentity.derivedPort(1001, 5));
    }

    @Test
    void slurmFallsBackToJobVariablesAndMasterOverrides() {
        final Map<String, String> env = slurm();
        env.remove("SLURM_STEP_NUM_TASKS");
        env.remove("SLURM_STEP_NODELIST");
        env.remove("SLURM_STEP_ID");
        env.put("SLURM_NTASKS", "8");
        env.put("MASTER_ADDR", "10.0.0.1");
        env.put("MASTER_PORT", "29999");
        final RankIdentity id = RankIdentity.fromEnvironment(cctk.Environment.of(env));
        assertThat(id.nodes()).containsExactly("nid001", "nid002", "nid003", "nid004");
        assertThat(id.stepId()).isZero();
        assertThat(id.rendezvousHost()).isEqualTo("10.0.0.1");
        assertThat(id.rendezvousPort()).isEqualTo(29999);
    }

    @Test
    void torchrunStyle() {
        final RankIdentity id = RankIdentity.fromEnvironment(cctk.Environment.of(Map.of("RANK", "3", "WORLD_SIZE", "4", "LOCAL_RANK",
                "1", "GROUP_RANK", "1", "MASTER_ADDR", "host0", "MASTER_PORT", "29400", "TORCHELASTIC_RUN_ID", "r1")));
        assertThat(id).isEqualTo(new RankIdentity(3, 4, 1, 1, List.of("host0"), "r1", 0, "host0", 29400,
                RankIdentity.Source.TORCHRUN));
    }

    @Test
    void launcherMarkWinsOverInheritedSlurmVariables() {
        final Map<String, String> env = slurm();
        env.putAll(Map.of("CCTK_LAUNCH_ID", "local-1", "RANK", "2", "WORLD_SIZE", "3", "LOCAL_RANK", "2",
                "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "40000"));
        final RankIdentity id = RankIdentity.fromEnvironment(cctk.Environment.of(env));
        assertThat(id.source()).isEqualTo(RankIdentity.Source.LAUNCHER);
        assertThat(id.rank()).isEqualTo(2);
        assertThat(id.jobId()).isEqualTo("local-1");
        assertThat(id.rendezvousPort()).isEqualTo(40000);
    }

    @Test
    void openMpiNeedsMasterAddr() {
        final Map<String, String> env = new HashMap<>(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE",
                "2", "OMPI_COMM_WORLD_LOCAL_RANK", "0"));
        assertThatThrownBy(() -> RankIdentity.fromEnvironment(cctk.Environment.of(env))).hasMessageContaining("MASTER_ADDR");
        env.put("MASTER_ADDR", "n1");
        final RankIdentity id = RankIdentity.fromEnvironment(cctk.Environment.of(env));
        assertThat(id.source()).isEqualTo(RankIdentity.Source.OMPI);
        assertThat(id.rank()).isEqualTo(1);
        assertThat(id.localRank()).isZero();
        assertThat(id.rendezvousPort()).isEqualTo(29500);
    }

    @Test
    void missingAndGarbledVariablesAreNamed() {
        final Map<String, String> env = slurm();
        env.remove("SLURM_LOCALID");
        assertEnvironmentError(env, "SLURM_LOCALID");
        final Map<String, String> garbled = slurm();
        garbled.put("SLURM_PROCID", "five");
        assertEnvironmentError(garbled, "SLURM_PROCID='five'");
        final Map<String, String> badList = slurm();
        badList.put("SLURM_STEP_NODELIST", "n[3-1]");
        assertEnvironmentError(badList, "SLURM_STEP_NODELIST");
        final Map<String, String> badPort = slurm();
        badPort.put("MASTER_PORT", "70000");
        assertEnvironmentError(badPort, "MASTER_PORT='70000'");
        final Map<String, String> outside = slurm();
        outside.put("SLURM_PROCID", "8");
        assertEnvironmentError(outside, "rank 8 is not below the world size 8");
        assertEnvironmentError(Map.of(), "SLURM_PROCID");
    }

    private static void assertEnvironmentError(final Map<String, String> env, final String text) {
        assertThatThrownBy(() -> RankIdentity.fromEnvironment(cctk.Environment.of(env)))
                .isInstanceOfSatisfying(CctkException.class,
                        e -> assertThat(e.exitCode()).isEqualTo(ExitCode.ENVIRONMENT))
                .hasMessageContaining(text);
    }
}
