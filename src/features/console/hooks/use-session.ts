import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { consoleKeys, fetchSession, login, logout } from '../api/staff-api';

export function useSession() {
  return useQuery({ queryKey: consoleKeys.me, queryFn: fetchSession, staleTime: 60_000, retry: 1 });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: () => queryClient.setQueryData(consoleKeys.me, true),
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    // Whatever the answer, the console forgets what it showed; the cookie is the server's business.
    onSettled: () => {
      queryClient.setQueryData(consoleKeys.me, false);
      // The session query stays: its observer is mounted and shows the login form.
      queryClient.removeQueries({
        queryKey: consoleKeys.all,
        predicate: (query) => query.queryKey[1] !== consoleKeys.me[1],
      });
    },
  });
}
