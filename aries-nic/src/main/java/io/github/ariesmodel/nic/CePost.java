package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.packet.Packet;

/**
 * One process's contribution to a collective-engine reduction ({@code GNI_PostFma} with type {@code GNI_POST_CE}
 * [S5]): the channel and the process's child index in it, the command ({@code ce_cmd}), one or two 64-bit operands
 * ({@code GNI_CEMODE_TWO_OP}), the reduction id ({@code ce_red_id}), the registered buffer where the NIC writes the
 * 24-byte result ({@code gni_ce_result_t}: control word, result1, result2) and the completion queue that gets the
 * post's GLOBAL event once the result is there. The post modes that say which floating-point exception flags a
 * posted intermediate result already carries ({@code GNI_CEMODE_FPE_*} [S5]) have no field here: a post contributes
 * without flags ({@link CeFpe}).
 *
 * @param postId the host's id, echoed in the completion event
 * @param channel the CE channel of this node, 0 to 3
 * @param child this process's index among the channel's children (a {@link CeChild.Kind#PE} child)
 * @param operation the command
 * @param operand1 first operand (for a min or max, the value)
 * @param operand2 second operand (for a min or max, its index); ignored unless {@code twoOperands} or indexed
 * @param twoOperands whether AND, OR, XOR and the additions combine both operands element-wise (min and max always
 *     take two)
 * @param reductionId the reduction id, 0 to {@link Packet#MAX_REDUCTION_ID}; every child of a reduction gives the same
 * @param resultMdh the registered memory the result goes to, 0 to 4095
 * @param resultOffset its offset there (24 bytes are written)
 * @param completionQueue this NIC's CQ for the GLOBAL event (0 to 2047), or {@link Post#NO_CQ}
 */
public record CePost(long postId, int channel, int child, CeOperation operation, long operand1, long operand2,
    boolean twoOperands, long reductionId, int resultMdh, long resultOffset, int completionQueue) {

  /** Bytes of the result the NIC writes ({@code gni_ce_result_t} [S5]). */
  public static final int RESULT_BYTES = 24;

  /** Validates the fields that need no NIC state. */
  public CePost {
    checkArgument(channel >= 0 && channel < CollectiveEngine.CHANNELS, "post.channel must be in [0, %s] but was %s",
        CollectiveEngine.CHANNELS - 1, channel);
    checkArgument(child >= 0 && child < CeChannelConfig.MAX_CHILDREN, "post.child must be in [0, %s] but was %s",
        CeChannelConfig.MAX_CHILDREN - 1, child);
    checkArgument(operation != null, "post.operation must not be null");
    checkArgument(reductionId >= 0 && reductionId <= Packet.MAX_REDUCTION_ID,
        "post.reductionId must be in [0, %s] but was %s", Packet.MAX_REDUCTION_ID, reductionId);
    checkArgument(resultMdh >= 0 && resultMdh <= NetworkAddress.MAX_MDH, "post.resultMdh must be in [0, %s] but was %s",
        NetworkAddress.MAX_MDH, resultMdh);
    checkArgument(resultOffset >= 0, "post.resultOffset must be >= 0 but was %s", resultOffset);
    checkArgument(completionQueue == Post.NO_CQ
        || (completionQueue >= 0 && completionQueue <= MemoryDomainDescriptor.MAX_CQ),
        "post.completionQueue must be -1 (none) or in [0, %s] but was %s", MemoryDomainDescriptor.MAX_CQ,
        completionQueue);
  }

  /**
   * A one-operand contribution (for a min or max, give the index as {@link #withSecondOperand}).
   *
   * @param postId the host's id
   * @param channel the channel
   * @param child this process's child index
   * @param operation the command
   * @param operand the operand
   * @param reductionId the reduction id
   * @param resultMdh where the result goes
   * @param resultOffset offset there
   * @param completionQueue the CQ of the GLOBAL event, or {@link Post#NO_CQ}
   * @return the post
   */
  public static CePost of(long postId, int channel, int child, CeOperation operation, long operand, long reductionId,
      int resultMdh, long resultOffset, int completionQueue) {
    return new CePost(postId, channel, child, operation, operand, 0, false, reductionId, resultMdh, resultOffset,
        completionQueue);
  }

  /**
   * This post with a second operand: the index of a min or max, or a second element for AND, OR, XOR and the
   * additions ({@code GNI_CEMODE_TWO_OP}).
   *
   * @param operand the second operand
   * @return the post
   */
  public CePost withSecondOperand(long operand) {
    return new CePost(postId, channel, child, operation, operand1, operand, true, reductionId, resultMdh,
        resultOffset, completionQueue);
  }

  /** @return whether the combination uses both operands */
  boolean usesBothOperands() {
    return twoOperands || operation.indexed();
  }
}
