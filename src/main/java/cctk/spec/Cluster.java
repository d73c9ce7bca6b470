package cctk.spec;

import java.util.List;

/**
 * The system half of a spec, usually from configs/clusters/*.yaml through {@code extends:}.
 * Null means "not given" for every optional string.
 *
 * @param name        profile name, e.g. {@code perlmutter}; {@code local} for no Slurm
 * @param partition   sbatch -p
 * @param account     sbatch -A
 * @param qos         sbatch -q
 * @param constraint  sbatch -C
 * @param reservation sbatch --reservation
 * @param sbatchExtra extra sbatch options, each one whole argument such as {@code --exclusive}
 * @param modules     modules to {@code module load}, in order
 * @param envScript   a script to source on the compute node (env/*.sh)
 * @param java        the java command on compute nodes
 * @param jar         the cctk jar as seen from compute nodes
 * @param srunExtra   extra srun options for every step, each one whole argument such as
 *                    {@code --network=disable_rdzv_get}
 */
public record Cluster(String name, String partition, String account, String qos, String constraint,
                      String reservation, List<String> sbatchExtra, List<String> modules, String envScript,
                      String java, String jar, List<String> srunExtra) {

    /** A cluster without extra srun options. */
    public Cluster(final String name, final String partition, final String account, final String qos,
                   final String constraint, final String reservation, final List<String> sbatchExtra,
                   final List<String> modules, final String envScript, final String java, final String jar) {
        this(name, partition, account, qos, constraint, reservation, sbatchExtra, modules, envScript, java, jar,
                List.of());
    }
}
