package cctk.spec;

import cctk.comm.DType;

/**
 * One message size of a sweep, in bytes ({@code 4MiB}) or in elements ({@code 1048576}, as a tensor of N elements
 * counts).
 *
 * @param value    the number
 * @param elements true when {@code value} counts elements, false when it counts bytes
 */
public record MessageSize(long value, boolean elements) {

    /** Total bytes for one element type. */
    public long bytes(final DType type) {
        return elements ? value * type.bytes() : value;
    }

    /** The size as a spec writes it: {@code 4MiB} for bytes, {@code 1048576} for elements. */
    public String specText() {
        return Sizes.format(this);
    }
}
