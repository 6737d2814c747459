package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.Status;

/**
 * A collective-engine result as the NIC writes it into a process's result buffer ({@code gni_ce_result_t} [S5]: a
 * control word, result1, result2). The control word's layout is the model's own (uGNI reads it only through
 * {@code gni_ce_res_get_status}, {@code _get_fpe} and {@code _get_red_id}, whose bit layout is not published):
 *
 * <table>
 *   <caption>Control word</caption>
 *   <tr><th>bits</th><th>field</th></tr>
 *   <tr><td>0-7</td><td>status: 0 OK, else 1 + the {@link Status} ordinal of the fault</td></tr>
 *   <tr><td>8-11</td><td>floating-point exception flags ({@link CeFpe})</td></tr>
 *   <tr><td>16-55</td><td>reduction id (40 bits)</td></tr>
 * </table>
 *
 * @param status OK, or why the reduction failed (its children disagreed on the command, the operand count or the
 *     reduction id: {@link Status#ILLEGAL_OPERATION})
 * @param fpe floating-point exception flags raised anywhere in the tree ({@link CeFpe})
 * @param reductionId the reduction id
 * @param result1 the combined first operand (the value of a min or max)
 * @param result2 the combined second operand (the index of a min or max)
 */
public record CeResult(Status status, int fpe, long reductionId, long result1, long result2) {

  private static final int FPE_SHIFT = 8;
  private static final int ID_SHIFT = 16;

  /** Validates the fields. */
  public CeResult {
    checkArgument(status != null, "status must not be null");
    CeFpe.check(fpe);
    checkArgument(reductionId >= 0 && reductionId <= io.github.ariesmodel.core.packet.Packet.MAX_REDUCTION_ID,
        "reductionId must be in [0, 2^40 - 1] but was %s", reductionId);
  }

  /** @return the control word (layout in the class javadoc) */
  public long control() {
    long s = status == Status.OK ? 0 : 1 + status.ordinal();
    return s | (long) fpe << FPE_SHIFT | reductionId << ID_SHIFT;
  }

  /**
   * Reads a result from its three words.
   *
   * @param control the control word
   * @param result1 result1
   * @param result2 result2
   * @return the result
   * @throws IllegalArgumentException when the control word is not one {@link #control()} makes (a status field of
   *     1, which would be OK written the way a fault is, included)
   */
  public static CeResult decode(long control, long result1, long result2) {
    int s = (int) (control & 0xFF);
    Status[] all = Status.values();
    checkArgument(s == 0 || (s <= all.length && all[s - 1] != Status.OK),
        "control's status field must be 0 (OK) or 1 + a fault's Status ordinal, in [2, %s], but was %s", all.length,
        s);
    checkArgument((control & 0xF000L) == 0 && control >>> 56 == 0, "control has bits set outside its fields: 0x%s",
        Long.toHexString(control));
    Status status = s == 0 ? Status.OK : all[s - 1];
    return new CeResult(status, (int) (control >>> FPE_SHIFT) & 0xF, (control >>> ID_SHIFT) & ((1L << 40) - 1),
        result1, result2);
  }

  /** @return result1 read as a double (the additions and min/max of floating-point values) */
  public double value1AsDouble() {
    return Double.longBitsToDouble(result1);
  }

  /** @return whether the reduction completed without a fault */
  public boolean ok() {
    return status == Status.OK;
  }
}
