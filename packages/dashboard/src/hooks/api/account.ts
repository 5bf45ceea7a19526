import { dashboardApi } from '@/api';
import { mutation } from './mutation.ts';

/**
 * Signing up, in and out, passwords, invitations and the address check (`/dashboard/api/…`). The
 * session itself (reading, switching) is lib/session.ts, which the whole app shares.
 */
export const useSignIn = mutation(dashboardApi.session.signIn);
export const useSignUp = mutation(dashboardApi.session.signUp);
export const useSignOut = mutation(dashboardApi.session.signOut);
export const useChangePassword = mutation(dashboardApi.session.changePassword);
export const useRequestPasswordReset = mutation(dashboardApi.session.requestPasswordReset);
export const useResetPassword = mutation(dashboardApi.session.resetPassword);
export const useVerifyEmail = mutation(dashboardApi.session.verifyEmail);
export const useResendVerification = mutation(dashboardApi.session.resendVerification);
export const useAcceptInvite = mutation(dashboardApi.team.acceptInvite);
