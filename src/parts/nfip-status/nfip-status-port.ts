import type { NfipStatus } from './nfip-status';

/**
 * Where the lookup finds a community's NFIP standing. Declared here and provided by the community-status
 * feature (which holds FEMA's table), so the lookup never imports that feature and that feature may use
 * this folder's rule without an import cycle.
 */
export abstract class NfipStatusPort {
  /** The community's standing (`listed: false` when the table lacks it); undefined while no table is held. */
  abstract lookup(communityId: string): Readonly<NfipStatus> | undefined;

  /** Whether the community's row gives a map date (initial FIRM or current effective map); null when the table lacks it; undefined while no table is held. */
  abstract mapDated(communityId: string): boolean | null | undefined;

  /** Counts the tables held so far: an answer joined with an earlier table is not served again once a newer one is held. */
  abstract get tableVersion(): number;

  /** The download under way, settled whatever its outcome; resolved when none is (a lookup waits for it at most its deadline). */
  abstract loadInProgress(): Promise<void>;

  /**
   * Settles once the table held was downloaded at or after `at` (epoch ms), downloading it now if need be (a watch's
   * sweep that found communities changed in FEMA's table answers them again with it); settles whatever the outcome.
   */
  abstract heldSince(at: number): Promise<void>;
}
