package cctk.comm;

/**
 * The CPU backend's tuning knobs (tcp and shared memory), in one place: each one's system property
 * ({@code java -Dcctk.tcp.spinMicros=0 -jar cctk.jar ...}; the launcher and the job script pass
 * {@code JAVA_TOOL_OPTIONS} through), its default, and what it changes. They exist to find causes and to tune a
 * site; the defaults are what cctk measures with.
 *
 * @param reduceReadBytes  {@value #REDUCE_READ_PROP}: a reducing receive reads at most this much per call and reduces
 *                         it while it is in cache (default 256 KiB, at least 4 KiB, rounded down to 64 bytes); its
 *                         staging ring per connection is twice that. Read once per process.
 * @param yield            {@value #YIELD_PROP}: yield the CPU instead of spinning while waiting (default false)
 * @param spinMicros       {@value #SPIN_MICROS_PROP}: how long a waiting rank spins before it blocks in the selector;
 *                         -1 (default) for automatic: 50 us, or 0 on a single host running more ranks than it has
 *                         CPUs, where a spinning rank holds the core that its peer needs
 * @param streamSendBytes  {@value #STREAM_SEND_PROP}: SO_SNDBUF of data-movement collectives; -1 (default) for
 *                         automatic: 256 KiB on a single host (the receiver copies each byte while it is in cache),
 *                         0 (keep the connection's) across hosts, where the window must cover the network's
 *                         bandwidth-delay product
 * @param directMaxBytes   {@value #DIRECT_MAX_PROP}: up to this size all-reduce exchanges whole buffers directly
 *                         instead of running the ring (default 64 KiB). Read once per process.
 * @param directMemory     {@value #DIRECT_MEMORY_PROP}: float reductions by address (JDK 17-22; default true); false
 *                         runs the portable path. Read once per process.
 * @param shmSpinMicros    {@value #SHM_SPIN_MICROS_PROP}: how long a rank waiting on shared memory spins before it
 *                         yields and then parks (default 2000 µs; none where a host's ranks outnumber its cores). A
 *                         park costs a wake-up of tens of µs on a VM, and a late rank makes its peers wait longer in
 *                         turn, so a short spin lets back-to-back collectives settle at parking speed (1 MiB at W=2
 *                         here: 160-340 µs instead of 25-70 µs per iteration with 2000 spins, about 130 µs)
 * @param shmDirectMaxBytes {@value #SHM_DIRECT_MAX_PROP}: up to this size a shared-memory all-reduce takes two
 *                         handoffs instead of three (default 32 KiB). Read once per process.
 * @param directMaxRanks   {@value #DIRECT_MAX_RANKS_PROP}: up to this many ranks, tcp's all-gather and small
 *                         all-reduce talk to every peer directly (one round trip); beyond, they run rings, so that a
 *                         rank connects two neighbours instead of every peer (default 8)
 */
public record Tuning(int reduceReadBytes, boolean yield, long spinMicros, int streamSendBytes, int directMaxBytes,
                     boolean directMemory, int shmSpinMicros, int shmDirectMaxBytes, int directMaxRanks) {

    /** System property of {@link #reduceReadBytes}. */
    public static final String REDUCE_READ_PROP = "cctk.tcp.reduceReadBytes";
    /** System property of {@link #yield}. */
    public static final String YIELD_PROP = "cctk.tcp.yield";
    /** System property of {@link #spinMicros}. */
    public static final String SPIN_MICROS_PROP = "cctk.tcp.spinMicros";
    /** System property of {@link #streamSendBytes}. */
    public static final String STREAM_SEND_PROP = "cctk.tcp.streamSendBytes";
    /** System property of {@link #directMaxBytes}. */
    public static final String DIRECT_MAX_PROP = "cctk.tcp.directMaxBytes";
    /** System property of {@link #directMemory}. */
    public static final String DIRECT_MEMORY_PROP = "cctk.directMemory";
    /** System property of {@link #shmSpinMicros}. */
    public static final String SHM_SPIN_MICROS_PROP = "cctk.shm.spinMicros";
    /** System property of {@link #shmDirectMaxBytes}. */
    public static final String SHM_DIRECT_MAX_PROP = "cctk.shm.directMaxBytes";
    /** System property of {@link #directMaxRanks}. */
    public static final String DIRECT_MAX_RANKS_PROP = "cctk.tcp.directMaxRanks";

    /** Default of {@link #reduceReadBytes}. */
    public static final int REDUCE_READ_DEFAULT = 256 << 10;
    /** Default of {@link #directMaxBytes}. */
    public static final int DIRECT_MAX_DEFAULT = 64 << 10;
    /** Default of {@link #shmSpinMicros}. */
    public static final int SHM_SPIN_MICROS_DEFAULT = 2000;
    /** Default of {@link #shmDirectMaxBytes}. */
    public static final int SHM_DIRECT_MAX_DEFAULT = 32 << 10;
    /** Default of {@link #directMaxRanks}. */
    public static final int DIRECT_MAX_RANKS_DEFAULT = 8;
    /** {@link #spinMicros} and {@link #streamSendBytes}: decided by the backend. */
    public static final int AUTO = -1;

    /** Every knob at its default. */
    public static final Tuning DEFAULT = new Tuning(REDUCE_READ_DEFAULT, false, AUTO, AUTO, DIRECT_MAX_DEFAULT, true,
        SHM_SPIN_MICROS_DEFAULT, SHM_DIRECT_MAX_DEFAULT, DIRECT_MAX_RANKS_DEFAULT);

    public Tuning {
        reduceReadBytes = Math.max(4 << 10, reduceReadBytes) & ~63;
    }

    /** The knobs as this process's system properties set them, defaults for the rest. */
    public static Tuning fromSystemProperties() {
        return new Tuning(Integer.getInteger(REDUCE_READ_PROP, REDUCE_READ_DEFAULT),
            Boolean.parseBoolean(System.getProperty(YIELD_PROP, "false")),
            Long.getLong(SPIN_MICROS_PROP, AUTO), Math.max(AUTO, Integer.getInteger(STREAM_SEND_PROP, AUTO)),
            Integer.getInteger(DIRECT_MAX_PROP, DIRECT_MAX_DEFAULT),
            Boolean.parseBoolean(System.getProperty(DIRECT_MEMORY_PROP, "true")),
            Math.max(0, Integer.getInteger(SHM_SPIN_MICROS_PROP, SHM_SPIN_MICROS_DEFAULT)),
            Integer.getInteger(SHM_DIRECT_MAX_PROP, SHM_DIRECT_MAX_DEFAULT),
            Math.max(1, Integer.getInteger(DIRECT_MAX_RANKS_PROP, DIRECT_MAX_RANKS_DEFAULT)));
    }
}
